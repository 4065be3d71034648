"""kblat's lines in dnsperf's output: per-answer latencies as HDR histograms and percentiles.

With capture on, dnsperf runs with -v piped through kblat (simulator/cmd/kblat), which prints a
JSON line before each `-S` interval line and one for the whole run after the summary.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kneeboard.tools import binaries
from kneeboard.tools.units import percentiles

_VERBOSE = re.compile(r"^\[Status\] Command line: .* -v(\s|$)", re.M)


def kblat() -> str | None:
    """The kblat binary ($KBLAT_BIN, simulator/bin/kblat, or on PATH); None when it is not built."""
    return binaries.find("kblat", "KBLAT_BIN")


def report(line: str) -> dict[str, Any] | None:
    """One kblat JSON line ({"kblat": "interval"|"point", ...}), else None."""
    if not line.startswith('{"kblat"'):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and record.get("kblat") in {"interval", "point"} else None


def read(stdout: str) -> tuple[dict[str, float | None], dict[str, Any], list[str]]:
    """The run's percentiles, its stored histograms (extra) and a warning when capture was off or failed."""
    reports = [r for line in stdout.splitlines() if (r := report(line))]
    point = next((r for r in reversed(reports) if r["kblat"] == "point"), None)
    if point is None:
        why = ("latency capture failed: dnsperf ran with -v but kblat printed no histogram (see stderr)" if _VERBOSE.search(stdout) else
               "latency capture was off (params.latency_capture is false, or kblat is not built: scripts/install-deps.sh "
               "builds it): this point has no latency percentiles")  # fmt: skip
        return percentiles(None), {}, [why]
    intervals = [[r["t"], r["hdr"]] for r in reports if r["kblat"] == "interval" and r.get("count")]
    return percentiles(point), {"hdr": point["hdr"], "hdr_intervals": intervals}, []


class IntervalReader:
    """Reads a run's lines in order: kblat's interval report, then dnsperf's `-S` line it belongs to."""

    def __init__(self, parse_line) -> None:
        self.parse_line, self.pending = parse_line, None

    def __call__(self, line: str):
        """A sample for each `-S` line, carrying the interval's percentiles when kblat reported them."""
        record = report(line)
        if record is not None:
            self.pending = record if record["kblat"] == "interval" else None
            return None
        sample = self.parse_line(line)
        if sample is not None and self.pending is not None:
            sample.values.update(percentiles(self.pending))
            self.pending = None
        return sample
