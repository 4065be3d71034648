"""mpstat (monitor, per-CPU utilisation incl. %soft): build the argv, parse `-o JSON`."""

from __future__ import annotations

import datetime as dt
import json
import math
import pathlib
import re
from typing import Any

from kneeboard.tools import units
from pydantic import BaseModel, ConfigDict, Field

from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.contract import Metric, Role, ToolAdapter

PARSER_VERSION = "1"
FIELDS = ("usr", "sys", "irq", "soft", "idle", "iowait", "steal")
SUMMARY_FIELDS = ("usr", "sys", "irq", "soft", "iowait", "steal")

_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%y", "%m/%d/%Y")
_TIME_FORMATS = ("%H:%M:%S", "%I:%M:%S %p")
_RE_VERSION = re.compile(r"sysstat version (\S+)")
_RE_HEADER = re.compile(r'"(nodename|date|number-of-cpus)":\s*("[^"]*"|\d+)')
_RE_STATISTICS = re.compile(r'"statistics":\s*\[')


# --- build ----------------------------------------------------------------------


# --- parse ----------------------------------------------------------------------


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """mpstat JSON → one Sample per CPU per interval; salvages JSON truncated by SIGTERM."""
    result = PointResult(parser_version=PARSER_VERSION)
    stdout = stdout or ""
    host, truncated = _read_host(stdout)
    statistics = host.get("statistics")
    if not isinstance(statistics, list) or not statistics:
        result.error = (units.failure_reason("mpstat", stderr, exit_code) if not stdout.strip()
                        else "mpstat: no complete interval in the output" if truncated
                        else "mpstat: output is not mpstat JSON (was -o JSON given?)")
        return result
    day = _read_date(host.get("date"))
    if day is None:
        result.error = f"mpstat: unreadable date {host.get('date')!r} (expected S_TIME_FORMAT=ISO)"
        return result
    result.samples = _samples(statistics, day)
    result.extra = {"nodename": host.get("nodename"), "cpus": host.get("number-of-cpus"),
                    "intervals": len(statistics), "truncated": truncated,
                    **summarise(result.samples)}
    if not result.samples:
        result.error = "mpstat: no readable cpu-load entries"
    return result




def summarise(samples: list[Sample]) -> dict[str, float | None]:
    """Peaks over single CPUs (cpu_max_soft_pct…), means of the all-CPU line (all_avg_…) and each CPU's means
    (mean_pct_by_cpu: {CPU: {field: %}})."""
    per_cpu = [s.values for s in samples if s.series != "mpstat.all"]
    overall = [s.values for s in samples if s.series == "mpstat.all"]
    summary: dict[str, float | None] = {}
    for field in SUMMARY_FIELDS:
        summary[f"cpu_max_{field}_pct"] = _peak(v.get(field) for v in per_cpu)
        summary[f"all_avg_{field}_pct"] = _mean(v.get(field) for v in overall)
    summary["cpu_max_busy_pct"] = _peak(_busy(v) for v in per_cpu)
    summary["all_avg_busy_pct"] = _mean(_busy(v) for v in overall)
    summary["mean_pct_by_cpu"] = _by_cpu(s for s in samples if s.series != "mpstat.all")
    return summary


def _by_cpu(samples: Any) -> dict[str, dict[str, float | None]]:
    """Each CPU's mean % per field over its intervals (the server evidence's per-CPU rules read them)."""
    by_cpu: dict[str, list[dict[str, float | None]]] = {}
    for s in samples:
        by_cpu.setdefault(s.series.removeprefix("mpstat.cpu"), []).append(s.values)
    return {cpu: {field: _mean(v.get(field) for v in values) for field in FIELDS} for cpu, values in by_cpu.items()}


def _read_host(stdout: str) -> tuple[dict[str, Any], bool]:
    """hosts[0] of a complete document, or what a truncated one still holds (and True)."""
    try:
        host = units.dig(json.loads(stdout), "sysstat", "hosts")
        return (host[0] if isinstance(host, list) and host and isinstance(host[0], dict) else {}), False
    except ValueError:
        host = _salvage_host(stdout)
        return host, "statistics" in host


def _salvage_host(text: str) -> dict[str, Any]:
    """Header fields and every complete statistics entry of truncated mpstat JSON.

    "statistics" is absent when the text does not even reach the statistics array.
    """
    host: dict[str, Any] = {key: int(value) if value.isdigit() else value.strip('"')
                             for key, value in _RE_HEADER.findall(text)}
    start = _RE_STATISTICS.search(text)
    if start is None:
        return host
    host["statistics"] = units.decode_items(text, start.end())
    return host


def _read_date(text: Any) -> dt.date | None:
    for pattern in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(str(text), pattern).date()
        except ValueError:
            continue
    return None


def _read_clock(text: Any) -> dt.time | None:
    for pattern in _TIME_FORMATS:
        try:
            return dt.datetime.strptime(str(text), pattern).time()
        except ValueError:
            continue
    return None


def _samples(statistics: list[Any], day: dt.date) -> list[Sample]:
    """Timestamps are UTC clock times on hosts[0].date; a clock going back means midnight passed."""
    samples: list[Sample] = []
    previous: dt.datetime | None = None
    for entry in statistics:
        clock = _read_clock(units.dig(entry, "timestamp"))
        loads = units.dig(entry, "cpu-load")
        if clock is None or not isinstance(loads, list):
            continue
        moment = dt.datetime.combine(day, clock, tzinfo=dt.timezone.utc)
        while previous is not None and moment < previous:
            moment += dt.timedelta(days=1)
        previous = moment
        for load in loads:
            cpu = units.dig(load, "cpu")
            if cpu is None:
                continue
            series = "mpstat.all" if cpu == "all" else f"mpstat.cpu{cpu}"
            values = {field: units.dig_number(load, field) for field in FIELDS}
            if all(value is None for value in values.values()):
                continue
            samples.append(Sample(t=moment.timestamp(), values=values, series=series))
    return samples


def _busy(values: dict[str, float | None]) -> float | None:
    idle = values.get("idle")
    return 100.0 - idle if idle is not None else None


def _peak(values: Any) -> float | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def _mean(values: Any) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


class MpstatParams(BaseModel):
    """mpstat's own parameters."""

    model_config = ConfigDict(extra="forbid", strict=True, title="mpstat parameters")
    interval_s: int = Field(default=1, ge=1, le=60, title="Interval (s)")


class Mpstat(ToolAdapter):
    """mpstat beside every point: per-CPU utilisation (series mpstat.cpuN and mpstat.all)."""

    name, title, role = "mpstat", "CPU (mpstat)", Role.MONITOR
    Params = MpstatParams
    version_argv, version_pattern = ["mpstat", "-V"], _RE_VERSION
    parser_version = PARSER_VERSION
    metrics = tuple(Metric(f, f"%{f}", "%", None if f == "idle" else "lower") for f in FIELDS)

    def argv(self, spec: PointSpec, params: MpstatParams, workdir: pathlib.Path) -> list[str]:
        """`mpstat -P ALL -o JSON INTERVAL COUNT` covering spec.duration_s."""
        count = max(1, math.ceil(spec.duration_s / params.interval_s))
        return ["mpstat", "-P", "ALL", "-o", "JSON", str(params.interval_s), str(count)]

    def env(self) -> dict[str, str]:
        """ISO dates, UTC clock times, C locale (what parse() expects)."""
        return {"S_TIME_FORMAT": "ISO", "TZ": "UTC", "LC_ALL": "C"}

    parse_final = staticmethod(parse)


ADAPTER = Mpstat()
build = ADAPTER.build
build_env = ADAPTER.env
parse_version = ADAPTER.parse_version
