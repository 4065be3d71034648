"""Write the flame-graph tests' fixtures from real `perf script` output, through the backend's own folding and diff.

    .venv/bin/python frontend/src/components/profiling/__fixtures__/make_fixtures.py

perf-<name>.folded.json: kneeboard.profiling.folding.fold() of tests/fixtures/tool-output/perf-6.1-script-<name>.txt
(the process's stacks, capped as stored). coredns-minimal-vs-log_file.diff.json: kneeboard.profiling.analysis.differential()
of the minimal CoreDNS (A) against the one with `log` (B), both at 10,000 q/s over a 2 s window (20,000 requests each).
"""

from __future__ import annotations

import json
from pathlib import Path

from kneeboard.profiling.analysis import differential, parse_folded
from kneeboard.profiling.folding import cap, fold

ROOT = Path(__file__).resolve().parents[5]
OUT = Path(__file__).resolve().parent
REQUESTS = 20_000.0


def folded(name: str, process: str) -> dict:
    """One perf script fixture folded for `process`, as the backend stores it."""
    source = f"tests/fixtures/tool-output/perf-6.1-script-{name}.txt"
    with open(ROOT / source) as fh:
        result = fold(fh, process)
    kept = cap(result.stacks)
    return {"source": source, "process": process, "samples": result.samples, "stack_depth": result.stack_depth,
            "stacks": kept.stacks, "folded": kept.text}  # fmt: skip


def summary(point_id: int, f: dict) -> dict:
    """A CpuProfileSummary for a fixture profile over a 2 s window at 99 Hz."""
    return {"point_id": point_id, "process": f["process"], "frequency_hz": 99, "window_s": 2.0, "samples": f["samples"],
            "all_samples": f["samples"], "cpu_pct": 100.0 * f["samples"] / 99 / 2.0, "requests": REQUESTS,
            "per_1k": 1000.0 * f["samples"] / REQUESTS, "stack_depth": f["stack_depth"], "stacks": f["stacks"],
            "dropped_stacks": 0, "dropped_samples": 0}  # fmt: skip


def main() -> None:
    """Write the three fixtures."""
    profiles = {name: folded(name, process) for name, process in
                [("coredns-log_file-Q10000", "coredns"), ("coredns-minimal-Q10000", "coredns"), ("nginx-wrk-c8", "nginx")]}  # fmt: skip
    for name in ("coredns-log_file-Q10000", "nginx-wrk-c8"):
        (OUT / f"perf-{name}.folded.json").write_text(json.dumps(profiles[name], indent=1) + "\n")
    a, b = profiles["coredns-minimal-Q10000"], profiles["coredns-log_file-Q10000"]
    changed = differential(parse_folded(a["folded"]), REQUESTS, parse_folded(b["folded"]), REQUESTS, limit=15)
    diff = {"a": summary(1, a), "b": summary(2, b),
            **{k: changed[k] for k in ("sign", "ranked_by", "functions", "functions_by_total", "frames", "stacks")}}
    (OUT / "coredns-minimal-vs-log_file.diff.json").write_text(json.dumps(diff, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
