"""The exporter monitor's process: scrape one exporter every INTERVAL seconds for DURATION seconds.

    python -m kneeboard.tools.exporter.scrape URL HOST INTERVAL DURATION PACK[,PACK...]

URL is the address to connect to (the worker's pinned one), HOST the Host header (the URL's name as written).
Prints one JSON line per scrape: {"t": epoch, "values": {"pack.query": {key: raw}}, "kept": n, "dropped": n}
with raw counters, gauges and buckets, or {"t": epoch, "error": "..."} when the scrape failed. Rates and
quantiles are the adapter's business (kneeboard.tools.exporter.series). Stops at DURATION, SIGINT or SIGTERM.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from kneeboard.exporters.packs import Pack, pack
from kneeboard.tools.exporter.fetch import ScrapeError, fetch
from kneeboard.tools.exporter.select import select
from kneeboard.validators import check_host, check_metrics_url

TIMEOUT_SHARE = 0.8  # a scrape gives up after this share of the interval, so scrapes never pile up
MAX_DURATION_S = 86_400.0


def scrape_once(url: str, host: str | None, packs: list[Pack], timeout_s: float) -> dict[str, Any]:
    """One scrape as the JSON-able line the adapter reads; t is the middle of the request."""
    began = time.time()
    try:
        line: dict[str, Any] = select(fetch(url, timeout_s, host=host), packs)
    except ScrapeError as exc:
        line = {"error": str(exc)}
    return {"t": round((began + time.time()) / 2, 4), **line}


def beat(scrape: Callable[[float], dict[str, Any]], interval_s: float, duration_s: float) -> None:
    """Call scrape(timeout_s) on a fixed beat (interval_s apart) until duration_s has passed; print one JSON line each."""
    start = time.monotonic()
    count = 0
    while time.monotonic() - start <= duration_s:
        print(json.dumps(scrape(interval_s * TIMEOUT_SHARE), separators=(",", ":")), flush=True)
        count += 1
        pause = start + count * interval_s - time.monotonic()
        if pause > 0:
            time.sleep(pause)


def beat_times(interval: str, duration: str) -> tuple[float, float]:
    """INTERVAL and DURATION from the command line, in range; ValueError saying the bounds otherwise."""
    interval_s, duration_s = float(interval), float(duration)
    if not (0.1 <= interval_s <= 60 and 0 < duration_s <= MAX_DURATION_S):
        raise ValueError(f"interval must be 0.1..60 s and duration 0..{MAX_DURATION_S:g} s")
    return interval_s, duration_s


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def until_stopped(work: Callable[[], None]) -> int:
    """Run a scraper's loop until it ends or SIGINT/SIGTERM stops it (how the worker ends a monitor); exit code 0."""
    signal.signal(signal.SIGTERM, _stop)
    try:
        work()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    return 0


def main(argv: list[str]) -> int:
    """Entry point: URL HOST INTERVAL DURATION PACKS (checked again here: the process may be run by hand)."""
    if len(argv) != 5:
        print("usage: python -m kneeboard.tools.exporter.scrape URL HOST INTERVAL_S DURATION_S PACK[,PACK]", file=sys.stderr)
        return 2
    try:
        url, host = check_metrics_url(argv[0]), argv[1]
        name, _, port = host.rpartition(":")
        check_host(name.strip("[]") or host)
        if port and not port.isdigit():
            raise ValueError(f"HOST must be NAME[:PORT], got {host!r}")
        interval_s, duration_s = beat_times(argv[2], argv[3])
        packs = [pack(n) for n in argv[4].split(",")]
    except (ValueError, KeyError) as exc:
        print(f"exporter scrape: {exc}", file=sys.stderr)
        return 2
    return until_stopped(lambda: beat(lambda timeout_s: scrape_once(url, host, packs, timeout_s), interval_s, duration_s))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
