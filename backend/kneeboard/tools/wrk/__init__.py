"""wrk (HTTP, closed loop): build the argv, parse the text report and Kneeboard's JSON line.

Kneeboard's report script prints wrk's whole latency distribution (its µs buckets); the point's
HDR histogram (extra `hdr`) and its percentiles are built from it. wrk prints nothing per
interval, so a wrk point has no `hdr_intervals` and no live samples.
"""

from __future__ import annotations

import pathlib
import re
import signal
import shutil
from typing import Any

from kneeboard.analysis import hdr
from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec
from kneeboard.tools.contract import Metric, Problem, ToolAdapter
from kneeboard.tools.wrk.params import WrkParams

PARSER_VERSION = "2"
REPORT_SCRIPT = pathlib.Path(__file__).with_name("report.lua")
CLOSED_LOOP = ("wrk is closed-loop: it sends less while the server is slow, so its tail latency is not measured at a fixed "
               "rate but estimated after the run from its own average rate (wrk's coordinated-omission correction); "
               "use kbhttp for tail latency at a fixed rate")
_PERCENTILES = {"50": "latency_p50_ms", "75": "latency_p75_ms", "90": "latency_p90_ms",
                "99": "latency_p99_ms", "99.9": "latency_p999_ms"}
_JSON_PERCENTILES = {"p50": "50", "p75": "75", "p90": "90", "p99": "99", "p99_9": "99.9"}
_SOCKET_ERROR_KINDS = ("connect", "read", "write", "timeout")

_RE_THREADS = re.compile(r"^\s*(\d+) threads? and (\d+) connections?", re.M)
_RE_LATENCY = re.compile(r"^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", re.M)
_RE_REQ_SEC = re.compile(r"^\s*Req/Sec\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", re.M)
_RE_PERCENTILE = re.compile(r"^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s*$", re.M)
_RE_TOTALS = re.compile(r"^\s*(\d+) requests in (\S+), (\S+) read\s*$", re.M)
_RE_SOCKET_ERRORS = re.compile(
    r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
_RE_NON_2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_RE_RPS = re.compile(r"^Requests/sec:\s+(\S+)\s*$", re.M)
_RE_TRANSFER = re.compile(r"^Transfer/sec:\s+(\S+)\s*$", re.M)
_RE_VERSION = re.compile(r"^wrk (\S+)", re.M)


# --- build ----------------------------------------------------------------------


def host_header(spec: PointSpec) -> list[str]:
    """wrk's -H for the target's name when the URL holds its checked address (none otherwise)."""
    return ["-H", f"Host: {units.url_host(spec.host_name)}:{spec.port}"] if spec.host_name else []


def target_url(spec: PointSpec, params: WrkParams) -> str:
    """The URL wrk loads: scheme://host:port/path (host and port were checked by `build`)."""
    netloc = units.url_host(spec.host)
    return f"{params.scheme}://{netloc}:{spec.port}{params.path}"


# --- parse ----------------------------------------------------------------------


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """wrk stdout (text report, optional JSON line last) → PointResult; never raises."""
    stdout = stdout or ""
    report = _read_text_report(stdout)
    lua = units.last_json_line(stdout)
    lua = lua if lua is not None and "requests" in lua else None
    result = PointResult(parser_version=PARSER_VERSION)
    if report is None and lua is None:
        result.error = (units.failure_reason("wrk", stderr, exit_code) if not stdout.strip()
                        else "wrk: no report found in the output")
        return result
    result.metrics, result.extra = _merge(report or {}, lua)
    result.extra["warnings"] = [*result.extra.get("warnings", []), CLOSED_LOOP]
    return result


def _read_text_report(stdout: str) -> dict[str, Any] | None:
    """wrk's own text report → plain figures (ms, bytes, counts); None without a totals line."""
    totals = _RE_TOTALS.search(stdout)
    if totals is None:
        return None
    duration_s = units.duration_ms(totals.group(2))
    report: dict[str, Any] = {
        "requests": float(totals.group(1)),
        "duration_s": duration_s / 1000.0 if duration_s is not None else None,
        "bytes": units.binary_bytes(totals.group(3)),
        "rps": units.text_number(_group(_RE_RPS, stdout)),
        "transfer_bps": _bits(units.binary_bytes(_group(_RE_TRANSFER, stdout))),
        "percentiles": {},
    }
    latency = _RE_LATENCY.search(stdout)
    # With no latency sample wrk prints 0.00us everywhere and "-nan%": those are not figures.
    if latency and units.text_number(latency.group(4)) is not None:
        report["avg"], report["stdev"], report["max"] = map(units.duration_ms, latency.groups()[:3])
        report["percentiles"] = {m.group(1): units.duration_ms(m.group(2))
                                 for m in _RE_PERCENTILE.finditer(stdout)}
    threads = _RE_THREADS.search(stdout)
    if threads:
        report["threads"], report["connections"] = int(threads.group(1)), int(threads.group(2))
    req_sec = _RE_REQ_SEC.search(stdout)
    if req_sec:
        report["thread_rps"] = dict(zip(("avg", "stdev", "max"),
                                        map(units.decimal_count, req_sec.groups()[:3])))
    socket = _RE_SOCKET_ERRORS.search(stdout)
    counts = [int(n) for n in socket.groups()] if socket else [0, 0, 0, 0]
    report["socket_errors"] = dict(zip(_SOCKET_ERROR_KINDS, counts))
    non_2xx = _RE_NON_2XX.search(stdout)
    report["non_2xx_3xx"] = int(non_2xx.group(1)) if non_2xx else 0
    return report


def _merge(report: dict[str, Any], lua: dict[str, Any] | None) -> tuple[dict, dict]:
    """Common metrics and extras: the JSON line's figures first, the text report's otherwise."""
    lua = lua or {}
    latency = _lua_latency(lua)
    percentiles = dict(report.get("percentiles", {}))
    if latency is not None:  # the JSON line is authoritative, including its nulls
        percentiles.update({p: units.ms_from_us(latency.get(k))
                            for k, p in _JSON_PERCENTILES.items() if k in latency})
    histogram, warnings = _histogram(lua)
    if histogram is not None:  # the whole distribution, when the script printed it, is the one source
        from_hdr = hdr.percentiles_ms(histogram)
        percentiles = {p: from_hdr.get(name) for p, name in _PERCENTILES.items()}
        percentiles["75"] = histogram.get_value_at_percentile(75.0) / 1000.0
    socket_errors = _lua_socket_errors(lua) or report.get("socket_errors") or {}
    non_2xx = units.dig_number(lua, "errors", "status")
    non_2xx = int(non_2xx) if non_2xx is not None else report.get("non_2xx_3xx", 0)
    duration_s = units.dig_number(lua, "duration_s") or report.get("duration_s")
    requests = _first(units.dig_number(lua, "requests"), report.get("requests"))
    byte_count = _first(units.dig_number(lua, "bytes"), report.get("bytes"))
    lua_bps = _bits(byte_count / duration_s) if "bytes" in lua and duration_s else None
    metrics = {
        "achieved_rate": _first(units.dig_number(lua, "rps"), report.get("rps")),
        "latency_avg_ms": _latency(latency, "mean", report.get("avg")),
        "latency_stddev_ms": _latency(latency, "stdev", report.get("stdev")),
        "latency_min_ms": _latency(latency, "min", None),
        "latency_max_ms": _latency(latency, "max", report.get("max")),
        **{name: percentiles.get(p) for p, name in _PERCENTILES.items()},
        "completed": requests,
        "errors": float(sum(socket_errors.values()) + non_2xx),
        "throughput_bps": _first(lua_bps, report.get("transfer_bps")),
    }
    extra = {
        "socket_errors": socket_errors,
        "non_2xx_3xx": non_2xx,
        "bytes": byte_count,
        "duration_s": duration_s,
        "report_script": bool(lua),
        **{k: report[k] for k in ("threads", "connections", "thread_rps") if k in report},
    }
    if histogram is not None:
        extra["hdr"] = hdr.encode(histogram)
    if warnings:
        extra["warnings"] = warnings
    return metrics, extra


def _histogram(lua: dict[str, Any]) -> tuple[Any, list[str]]:
    """The HDR histogram of the script's `latency_dist_us` [[µs, count], ...]; None without it, without
    any sample, or when the script had to stop listing buckets (then a warning says so)."""
    pairs = lua.get("latency_dist_us")
    if not isinstance(pairs, list) or not pairs:
        return None, []
    if not all(isinstance(p, list) and len(p) == 2 and all(units.is_number(n) and n >= 0 for n in p) for p in pairs):
        return None, ["wrk's latency distribution was not [[µs, count], ...]: no histogram is stored"]
    if lua.get("latency_dist_complete") is False:
        return None, [f"wrk's latency distribution was too wide to list in full (stopped at {len(pairs)} buckets, "
                      f"{pairs[-1][0]} µs): no histogram is stored and the percentiles are wrk's own"]
    return hdr.from_counts((int(v), int(c)) for v, c in pairs), []


def _lua_latency(lua: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON latency block; all None when wrk recorded no sample (min UINT64_MAX > max 0)."""
    latency = lua.get("latency_us")
    if not isinstance(latency, dict):
        return None
    low, high = latency.get("min"), latency.get("max")
    if units.is_number(low) and units.is_number(high) and low > high:
        return {key: None for key in latency}
    return latency


def _lua_socket_errors(lua: dict[str, Any]) -> dict[str, int] | None:
    counts = [units.dig_number(lua, "errors", kind) for kind in _SOCKET_ERROR_KINDS]
    if any(count is None for count in counts):
        return None
    return {kind: int(count) for kind, count in zip(_SOCKET_ERROR_KINDS, counts)}


def _latency(latency: dict[str, Any] | None, key: str, fallback: float | None) -> float | None:
    return units.ms_from_us(latency.get(key)) if latency is not None else fallback


def _first(*values: float | None) -> float | None:
    return next((v for v in values if v is not None), None)


def _bits(bytes_per_s: float | None) -> float | None:
    return bytes_per_s * 8.0 if bytes_per_s is not None else None


def _group(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match.group(1) if match else None


_LATENCY = [("latency_avg_ms", "Latency avg"), ("latency_stddev_ms", "Latency stddev"), ("latency_min_ms", "Latency min"),
            ("latency_max_ms", "Latency max"), ("latency_p50_ms", "Latency p50"), ("latency_p75_ms", "Latency p75"),
            ("latency_p90_ms", "Latency p90"), ("latency_p99_ms", "Latency p99"), ("latency_p999_ms", "Latency p99.9")]


def _wrk_time(seconds: float) -> str:
    """wrk reads whole numbers with a unit of s, m or h ("500ms" makes it print its usage): 2 → "2s"."""
    return f"{int(seconds)}s"


class Wrk(ToolAdapter):
    """wrk: closed loop, `concurrency` = connections, no offered rate."""

    name, title, target_kinds = "wrk", "HTTP (wrk)", ("http",)
    work_unit = ("1,000 requests", 1000.0)
    Params = WrkParams
    concurrency_label = "connections"
    takes_rate, whole_seconds, ramp_allowed = False, True, True
    stop_signal = signal.SIGINT  # on SIGTERM wrk prints nothing; SIGINT still prints the report
    version_argv, version_pattern = ["wrk", "-v"], _RE_VERSION  # exits 1, prints its usage after the version line
    parser_version = PARSER_VERSION
    metrics = (
        Metric("achieved_rate", "Achieved", "req/s", "higher", headline=True),
        *(Metric(name, title, "ms", "lower") for name, title in _LATENCY),
        Metric("completed", "Requests", "count", "higher"),
        Metric("errors", "Errors (socket + non-2xx/3xx)", "count", "lower"),
        Metric("throughput_bps", "Transfer", "bit/s", "higher"),
    )

    def check_points(self, params: WrkParams, points, host: str | None) -> list[Problem]:
        """wrk needs at least one connection per thread: threads ≤ every point's connections."""
        problems = super().check_points(params, points, host)
        fewest = min((p.concurrency for p in points), default=None)
        if params.threads is not None and fewest is not None and params.threads > fewest:
            problems.append((("params", "threads"), f"{params.threads} threads need at least as many connections; a point has {fewest}"))
        return problems

    def argv(self, spec: PointSpec, params: WrkParams, workdir: pathlib.Path) -> list[str]:
        """wrk argv; copies Kneeboard's report script into `workdir` (never a user script)."""
        threads = params.threads or min(2, spec.concurrency)
        workdir.mkdir(parents=True, exist_ok=True)
        script = workdir / "wrk_report.lua"
        shutil.copyfile(REPORT_SCRIPT, script)
        return ["wrk", "-t", str(threads), "-c", str(spec.concurrency), "-d", f"{int(spec.duration_s)}s",
                "--timeout", _wrk_time(params.timeout_s), "--latency", "-s", str(script), *host_header(spec), target_url(spec, params)]

    parse_final = staticmethod(parse)


ADAPTER = Wrk()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
