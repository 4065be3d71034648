"""dnsperf: build argv, parse its summary, its -S 1 interval lines and kblat's latency histograms."""

from __future__ import annotations

import re
from pathlib import Path

from kneeboard.analysis.generator import Sending
from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.contract import Metric, PlannedPoint, ToolAdapter
from kneeboard.tools.dnsperf import latency
from kneeboard.tools.dnsperf.params import MAX_OUTSTANDING, DnsperfParams

PARSER_VERSION = "2"

_INTERVAL = re.compile(r"^(\d{9,}\.\d+):\s+([\d.]+)\s*$")
_VERSION = re.compile(r"^Version\s+(\S+)", re.M)
_NUMBER = r"([\d.]+)"
_FIELDS = {
    "sent": rf"Queries sent:\s+{_NUMBER}",
    "completed": rf"Queries completed:\s+{_NUMBER}",
    "lost": rf"Queries lost:\s+{_NUMBER}",
    "run_time_s": rf"Run time \(s\):\s+{_NUMBER}",
    "achieved_rate": rf"Queries per second:\s+{_NUMBER}",
    "latency_avg_s": rf"Average Latency \(s\):\s+{_NUMBER}",
    "latency_min_s": rf"Average Latency \(s\):.*\(min\s+{_NUMBER}",
    "latency_max_s": rf"Average Latency \(s\):.*max\s+{_NUMBER}\)",
    "latency_stddev_s": rf"Latency StdDev \(s\):\s+{_NUMBER}",
}
_RCODES = re.compile(r"Response codes:[ \t]*(.*)$", re.M)
_RCODE = re.compile(r"([A-Z][A-Z0-9]*)\s+(\d+)\s+\(")
_SEND_FAILED = re.compile(r"^Warning: ((?:failed to send|network congested).*)$", re.M)  # its socket refused a query


def parse_line(line: str) -> Sample | None:
    """One `-S 1` interval line (`EPOCH.usec: qps`) as a sample, else None."""
    match = _INTERVAL.match(line.strip())
    if match is None:
        return None
    return Sample(t=float(match.group(1)), values={"achieved_rate": float(match.group(2))})


def parse_rcodes(stdout: str) -> dict[str, int]:
    """The `Response codes:` line as {rcode: count}; empty when nothing completed."""
    match = _RCODES.search(stdout)
    return {code: int(count) for code, count in _RCODE.findall(match.group(1))} if match else {}


def _error_reason(stdout: str, stderr: str, exit_code: int | None) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip() and not line.startswith((" ", "Usage"))]
    first = lines[0] if lines else (stdout.strip().splitlines() or ["no output"])[-1]
    return f"dnsperf exited with code {exit_code}: {first}"


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The summary as common metrics (ms, ops/s), rcodes and warnings; an error when nothing was measured."""
    read = latency.IntervalReader(parse_line)
    result = PointResult(parser_version=PARSER_VERSION, samples=[s for line in stdout.splitlines() if (s := read(line))])
    if exit_code not in (0, None):
        result.error = _error_reason(stdout, stderr, exit_code)
        return result
    found = {key: float(m.group(1)) for key, pattern in _FIELDS.items() if (m := re.search(pattern, stdout))}
    if not {"sent", "completed", "lost"} <= found.keys():
        result.error = "dnsperf printed no statistics (output not recognised); raw output kept"
        return result
    seconds = {k: found.pop(k) for k in list(found) if k.endswith("_s") and k.startswith("latency")}
    metrics: dict[str, float | None] = {k: found.get(k) for k in ("sent", "completed", "lost", "achieved_rate")}
    for key in ("avg", "min", "max", "stddev"):
        value = seconds.get(f"latency_{key}_s")
        measured = value is not None and metrics["completed"]
        metrics[f"latency_{key}_ms"] = round(value * 1000.0, 6) if measured else None
    metrics["loss_pct"] = 100.0 * metrics["lost"] / metrics["sent"] if metrics["sent"] else None
    percentiles, histograms, capture_warnings = latency.read(stdout)
    metrics.update(percentiles)
    rcodes = parse_rcodes(stdout)
    not_ok = sum(n for code, n in rcodes.items() if code != "NOERROR")
    metrics["errors"] = float(not_ok)
    result.metrics = metrics
    result.extra = {"rcodes": rcodes, "run_time_s": found.get("run_time_s"), **histograms,
                    "warnings": _warnings(metrics, rcodes) + capture_warnings}
    failed_sends = _SEND_FAILED.findall(f"{stderr}\n{stdout}")
    if failed_sends:
        result.extra.update(send_failures=len(failed_sends), send_failure=failed_sends[0])
    if not metrics["completed"]:
        result.error = f"no answers: {metrics['sent']:.0f} queries sent, all lost (is the DNS server up and reachable?)"
    elif rcodes and not rcodes.get("NOERROR"):
        result.error = f"every answer was an error rcode: {', '.join(f'{k} {v}' for k, v in rcodes.items())}"
    return result


def _warnings(metrics: dict[str, float | None], rcodes: dict[str, int]) -> list[str]:
    warnings = []
    if metrics["lost"]:
        warnings.append(f"{metrics['lost']:.0f} queries lost ({metrics['loss_pct']:.3f} %)")
    bad = {code: n for code, n in rcodes.items() if code != "NOERROR"}
    if bad:
        warnings.append("non-NOERROR answers: " + ", ".join(f"{code} {n}" for code, n in bad.items()))
    return warnings


class Dnsperf(ToolAdapter):
    """dnsperf: `rate` is queries/s (-Q), `concurrency` its clients (-c)."""

    name, title, target_kinds = "dnsperf", "DNS (dnsperf)", ("dns",)
    work_unit = ("1,000 queries", 1000.0)
    Params = DnsperfParams
    concurrency_label = "clients"
    line_buffered = live_samples = True  # -S 1 lines reach the browser as printed, not in 4 kB blocks
    version_argv, version_pattern = ["dnsperf", "-c", "0"], _VERSION  # "invalid clients: 0", rc 1, banner first
    parser_version = PARSER_VERSION
    metrics = (
        Metric("achieved_rate", "Achieved", "qps", "higher", headline=True),
        Metric("latency_avg_ms", "Latency avg", "ms", "lower"),
        Metric("latency_min_ms", "Latency min", "ms", "lower"),
        Metric("latency_max_ms", "Latency max", "ms", "lower"),
        Metric("latency_stddev_ms", "Latency stddev", "ms", "lower"),
        Metric("latency_p50_ms", "Latency p50", "ms", "lower"),
        Metric("latency_p90_ms", "Latency p90", "ms", "lower"),
        Metric("latency_p99_ms", "Latency p99", "ms", "lower"),
        Metric("latency_p999_ms", "Latency p99.9", "ms", "lower"),
        Metric("sent", "Queries sent", "count"),
        Metric("completed", "Answers", "count", "higher"),
        Metric("lost", "Lost", "count", "lower"),
        Metric("loss_pct", "Loss", "%", "lower"),
        Metric("errors", "Error rcodes", "count", "lower"),
    )

    def argv(self, spec: PointSpec, params: DnsperfParams, workdir: Path) -> list[str]:
        """dnsperf argv (-v when kblat reads its answers); writes the query file (names × qtype) into workdir."""
        workdir.mkdir(parents=True, exist_ok=True)
        queries = workdir / "queries.txt"
        queries.write_text("".join(f"{name} {params.qtype}\n" for name in params.names))
        argv = ["dnsperf", "-s", spec.host, "-p", str(spec.port), "-d", str(queries), "-c", str(spec.concurrency),
                "-q", str(params.max_outstanding)]
        if spec.rate is not None:
            argv += ["-Q", str(max(1, round(spec.rate)))]
        argv += ["-l", f"{spec.duration_s:g}", "-t", f"{params.timeout_s:g}", "-S", "1"]
        return argv + ["-v"] if _capture(params) else argv

    def pipe_through(self, spec: PointSpec) -> list[str] | None:
        """kblat, reading every answer's latency, when the plan captures latency and kblat is built."""
        reader = _capture(self.read_params(spec.params))
        return [reader] if reader else None

    def sending(self, point: PlannedPoint, params: DnsperfParams, result: PointResult) -> Sending | None:
        """Asked: -Q (whole queries/s) × the duration; the cap: -q queries outstanding, per agent the point ran on."""
        sent = result.metrics.get("sent")
        if point.offered_rate is None or sent is None:
            return None
        rate, agents = max(1, round(point.offered_rate)), len(result.extra.get("shares") or ()) or 1
        return Sending(tool=self.name, unit="queries", rate_unit=self.rate_unit, offered_rate=rate, duration_s=point.duration_s,
                       asked=rate * point.duration_s, sent=sent, lost=result.metrics.get("lost") or 0.0,
                       latency_ms=result.metrics.get("latency_avg_ms"), timeout_s=params.timeout_s,
                       cap=params.max_outstanding * agents, cap_param="max_outstanding", cap_label="queries outstanding",
                       cap_max=MAX_OUTSTANDING, cap_shares=agents, socket_failures=result.extra.get("send_failures", 0),
                       socket_detail=result.extra.get("send_failure"))  # fmt: skip

    parse_interval = staticmethod(parse_line)

    def interval_reader(self, started_at: float) -> latency.IntervalReader:
        """Reads `-S` lines live, with the percentiles of kblat's report just before each."""
        return latency.IntervalReader(parse_line)

    parse_final = staticmethod(parse)


def _capture(params: DnsperfParams) -> str | None:
    """kblat's path when this plan's points capture per-answer latency, else None."""
    return latency.kblat() if params.latency_capture else None


ADAPTER = Dnsperf()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
