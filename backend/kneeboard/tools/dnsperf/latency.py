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


# An `-S 1` interval under one answer per second counted none: the load had not started. dnsperf 2.10 also prints such a
# first line now and then (1 run in 4 to 15 here) when its stats thread starts before the run's clock is set: the
# interval's count over the seconds since the epoch (5,000 q/s offered read "0.000003"; kblat counted the answers),
# so that interval's rate is unknown, not zero.
NO_ANSWER_RATE = 1.0


class IntervalReader:
    """Reads a run's lines in order: kblat's interval report, then dnsperf's `-S` line it belongs to."""

    def __init__(self, parse_line) -> None:
        self.parse_line, self.pending, self.started = parse_line, None, False

    def __call__(self, line: str):
        """A sample for each `-S` line, carrying the interval's percentiles when kblat reported them; the lines before
        the first interval that counted an answer are left out (the load had not started: a 0 q/s start is no sample)."""
        record = report(line)
        if record is not None:
            self.pending = record if record["kblat"] == "interval" else None
            return None
        sample = self.parse_line(line)
        if sample is None:
            return None
        pending, self.pending = self.pending, None
        self.started = self.started or (sample.values.get("achieved_rate") or 0.0) >= NO_ANSWER_RATE
        if not self.started:
            return None
        if pending is not None:
            sample.values.update(percentiles(pending))
        return sample
