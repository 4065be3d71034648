"""dnsperf: build argv, parse its summary (with its connection and DoH statistics over tcp, dot and doh), its -S 1
interval lines and kblat's latency histograms."""

from __future__ import annotations

import re
from pathlib import Path

from kneeboard.analysis.generator import Sending
from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.contract import Metric, PlannedPoint, ToolAdapter
from kneeboard.tools.dnsperf import latency
from kneeboard.tools.dnsperf.params import DOH_METHOD, DOH_PATH, MAX_OUTSTANDING, TLS_MODES, DnsperfParams
from kneeboard.tools.units import url_host

PARSER_VERSION = "3"

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
# Over tcp, dot and doh: "Connection Statistics:", its reconnections and the latency of connecting (TCP, and the TLS
# handshake for dot and doh) over every connection made; StdDev only past one connection.
_CONNECTIONS = re.compile(r"^Connection Statistics:\s+Reconnections:\s+(\d+).*\s+Average Latency \(s\):\s+([\d.]+) \(min ([\d.]+), "
                          r"max ([\d.]+)\)(?:\s+Latency StdDev \(s\):\s+([\d.]+))?", re.M)
_HTTP_CODES = re.compile(r"^\s*HTTP/2 return codes:[ \t]*(.*)$", re.M)  # doh: "200: 3990, 404: 6, unknown: 4"
_HTTP_CODE = re.compile(r"(\d{3}|unknown): (\d+)")  # unknown: a stream that ended without a status dnsperf read
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


def parse_connections(stdout: str) -> dict[str, float | None]:
    """dnsperf's connection statistics (tcp, dot, doh): reconnections and the connect latency in ms; {} over udp."""
    match = _CONNECTIONS.search(stdout)
    if match is None:
        return {}
    avg, low, high, spread = (float(v) * 1000.0 if v is not None else None for v in match.groups()[1:])
    return {"reconnections": float(match.group(1)), "connect_latency_avg_ms": avg, "connect_latency_min_ms": low,
            "connect_latency_max_ms": high, "connect_latency_stddev_ms": spread}


def parse_http_codes(stdout: str) -> dict[str, int]:
    """DoH's `HTTP/2 return codes:` line as {status: count}; {} for the other transports."""
    match = _HTTP_CODES.search(stdout)
    return {code: int(count) for code, count in _HTTP_CODE.findall(match.group(1))} if match else {}


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
    summary = stdout.split("\nConnection Statistics:")[0]  # its latency lines read like the queries'
    found = {key: float(m.group(1)) for key, pattern in _FIELDS.items() if (m := re.search(pattern, summary))}
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
    connections, http_codes = parse_connections(stdout), parse_http_codes(stdout)
    metrics.update({k: connections.get(k) for k in ("reconnections", "connect_latency_avg_ms", "connect_latency_max_ms")})
    result.metrics = metrics
    result.extra = {"rcodes": rcodes, "run_time_s": found.get("run_time_s"), **histograms,
                    **({"connections": connections} if connections else {}), **({"http_codes": http_codes} if http_codes else {}),
                    "warnings": _warnings(metrics, rcodes) + _transport_warnings(metrics, connections, http_codes) + capture_warnings}
    failed_sends = _SEND_FAILED.findall(f"{stderr}\n{stdout}")
    if failed_sends:
        result.extra.update(send_failures=len(failed_sends), send_failure=failed_sends[0])
    http_ok = sum(n for code, n in http_codes.items() if code.startswith("2"))
    if http_codes and not http_ok:
        result.error = f"no DoH answer: every request had an HTTP error ({_codes(http_codes)}); is doh_path the server's?"
    elif not metrics["completed"]:
        result.error = f"no answers: {metrics['sent']:.0f} queries sent, all lost (is the DNS server up and reachable?)"
    elif rcodes and not rcodes.get("NOERROR"):
        result.error = f"every answer was an error rcode: {', '.join(f'{k} {v}' for k, v in rcodes.items())}"
    return result


def _codes(counts: dict[str, int]) -> str:
    return ", ".join(f"HTTP {code} {n}" for code, n in counts.items())


def _transport_warnings(metrics: dict[str, float | None], connections: dict, http_codes: dict[str, int]) -> list[str]:
    """Reconnections, DoH requests refused, and DoH answers dnsperf received but did not count."""
    warnings = []
    if connections.get("reconnections"):
        warnings.append(f"{connections['reconnections']:.0f} reconnections: the server closed connections (each one a new "
                        "connect and, over dot and doh, a new TLS handshake)")
    refused = {code: n for code, n in http_codes.items() if not code.startswith("2")}
    if refused:
        warnings.append(f"DoH requests answered with an HTTP error: {_codes(refused)}")
    dropped = sum(http_codes.values()) - sum(refused.values()) - (metrics["completed"] or 0)
    if http_codes and dropped > 0:
        warnings.append(f"dnsperf received {dropped:.0f} DoH answers (HTTP 2xx) it did not count: dnsperf 2.10 drops an answer "
                        "that arrives in the same read as another one and counts its query lost; with max_outstanding no "
                        "higher than the clients each connection has one query in flight")
    return warnings


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
        Metric("reconnections", "Reconnections", "count", "lower"),
        Metric("connect_latency_avg_ms", "Connect avg (incl. TLS handshake)", "ms", "lower"),
        Metric("connect_latency_max_ms", "Connect max (incl. TLS handshake)", "ms", "lower"),
    )

    def argv(self, spec: PointSpec, params: DnsperfParams, workdir: Path) -> list[str]:
        """dnsperf argv (-v when kblat reads its answers); writes the query file (names × qtype) into workdir."""
        workdir.mkdir(parents=True, exist_ok=True)
        queries = workdir / "queries.txt"
        queries.write_text("".join(f"{name} {params.qtype}\n" for name in params.names))
        port = _port(spec, params)
        argv = ["dnsperf", *_transport(spec, params, port), "-s", spec.host, "-p", str(port), "-d", str(queries),
                "-c", str(spec.concurrency), "-q", str(params.max_outstanding)]
        if spec.rate is not None:
            argv += ["-Q", str(max(1, round(spec.rate)))]
        argv += ["-l", f"{spec.duration_s:g}", "-t", f"{params.timeout_s:g}", "-S", "1"]
        return argv + ["-v"] if _capture(params) else argv

    def unverified_tls_port(self, spec: PointSpec) -> int | None:
        """dot and doh: dnsperf 2.10 connects over TLS without verifying the certificate (nor sending SNI)."""
        params = self.read_params(spec.params)
        return _port(spec, params) if params.mode in TLS_MODES else None

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


def _port(spec: PointSpec, params: DnsperfParams) -> int:
    """The transport's port when the plan gives one, else the target's."""
    return params.port or spec.port


def _transport(spec: PointSpec, params: DnsperfParams, port: int) -> list[str]:
    """-m over anything but udp (dnsperf's default, left out); for doh the URI (the target's name, else its address, in
    :authority) and the method."""
    if params.mode == "udp":
        return []
    flags = ["-m", params.mode]
    if params.mode == "doh":
        authority = url_host(spec.host_name or spec.host) + ("" if port == 443 else f":{port}")
        flags += ["-O", f"doh-uri=https://{authority}{params.doh_path or DOH_PATH}", "-O", f"doh-method={params.doh_method or DOH_METHOD}"]
    return flags


def _capture(params: DnsperfParams) -> str | None:
    """kblat's path when this plan's points capture per-answer latency, else None."""
    return latency.kblat() if params.latency_capture else None


ADAPTER = Dnsperf()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
