"""Trial-seconds to find a known capacity: the staged search against RFC 2544's binary search at full trial length.

`kbhttp serve --workers N --service-time 400ms` (capacity N / the service time it really spent, under a loss
criterion); each trial a real `kbhttp run`. A long service time with many workers: a stall of the load generator (this
machine has 2 cores) is absorbed by the idle workers instead of being refused as if the server were full. Prints, per capacity: the server's own figure, what each method found,
its trials and trial-seconds, and a uniform grid's trial-seconds at the same resolution. Run: make bench-capacity-search.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.search.algorithm import Criterion, SearchConfig, rfc2544, run  # noqa: E402
from tests.support.capacity_search import kbhttp_trial, known_capacity, server_capacity  # noqa: E402
from kneeboard.search.algorithm import Trial  # noqa: E402

CONFIG = SearchConfig(low=1000, high=8000, criteria=(Criterion("loss_pct", 1.0),), resolution_pct=1.0, max_duration_s=4.0)
SERVICE_MS = 400
SERVERS = (800, 2000)  # workers: about 2,000 and 5,000 req/s


def main() -> None:
    """Both methods at about 2,000 and 5,000 req/s."""
    print(f"range {CONFIG.low:g}–{CONFIG.high:g} req/s, loss ≤ {CONFIG.criteria[0].limit:g} %, resolution {CONFIG.resolution_pct:g} %, "
          f"longest trial {CONFIG.max_duration_s:g} s")
    print(f"{'workers':>7} {'server':>8} {'method':>9} {'found':>8} {'error':>7} {'trials':>6} {'trial-s':>8} {'grid trial-s':>12}")
    for workers in SERVERS:
        with known_capacity(workers, SERVICE_MS, lifetime_s=900) as port:
            measure = kbhttp_trial(port, connections=2 * workers + 200)
            found, trials = run(CONFIG, measure)
            full = CONFIG.max_duration_s
            rfc_found, rfc_trials = rfc2544(CONFIG.low, CONFIG.high, CONFIG.resolution_pct,
                                            lambda rate: CONFIG.criteria[0].passes(measure(Trial(rate, full, 0, 0))))
            truth = server_capacity(port)["capacity"]
        grid = (CONFIG.high - CONFIG.low) / (CONFIG.resolution_pct / 100 * truth) * full
        for name, value, n, seconds in (("search", found[0].value, len(trials), sum(t.duration_s for t, _ in trials)),
                                        ("RFC 2544", rfc_found, rfc_trials, rfc_trials * full)):
            error = f"{(value / truth - 1) * 100:+.1f} %" if value else "—"
            print(f"{workers:>7} {truth:>8,.0f} {name:>9} {value or 0:>8,.0f} {error:>7} {n:>6} {seconds:>8g} {grid:>12,.0f}")


if __name__ == "__main__":
    main()
