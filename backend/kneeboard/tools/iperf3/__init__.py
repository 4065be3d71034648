"""iperf3 (TCP/UDP throughput): build the argv, parse its --json report."""

from __future__ import annotations

import pathlib
import re
from typing import Any

from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.contract import Metric, Problem, ToolAdapter, phase_loc
from kneeboard.tools.iperf3.params import MAX_RATE_BPS, MAX_STREAMS, Iperf3Params

PARSER_VERSION = "1"

_RE_VERSION = re.compile(r"iperf (\d[\w.+~-]*)")


# --- build ----------------------------------------------------------------------


def per_stream_bitrate(rate: float | None, streams: int) -> int:
    """iperf3's -b is per stream: TOTAL offered bits/s ÷ streams; 0 (unlimited) when no rate."""
    return 0 if rate is None else round(rate / streams)


# --- parse ----------------------------------------------------------------------


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """iperf3 --json stdout → PointResult; the top-level "error" (rc 0!) becomes the error."""
    result = PointResult(parser_version=PARSER_VERSION)
    report = units.load_json_object(stdout or "")
    truncated = report is None
    report = _salvage_report(stdout or "") if truncated else report
    if report is None:
        result.error = (units.failure_reason("iperf3", stderr, exit_code) if not (stdout or "").strip()
                        else "iperf3: output is not a JSON report (was --json given?)")
        return result
    result.extra = _describe(report)
    result.metrics = _end_metrics(report.get("end"), result.extra["protocol"])
    result.samples = _interval_samples(report)
    result.extra.update(_end_extra(report.get("end")), truncated=truncated)
    if report.get("error"):
        result.error = f"iperf3: {report['error']}"
    elif not result.metrics:
        result.error = "iperf3: the report has no end summary"
    return result


parse_line = units.no_live_samples


def _salvage_report(text: str) -> dict[str, Any] | None:
    """The top-level members still readable in JSON that was cut or had its middle dropped.

    iperf3 indents its JSON with tabs: top-level members are the lines starting with one tab.
    """
    report = {key: value for key in ("start", "end", "error")
              if (value := units.decode_after(text, rf'^\t"{key}":\s*')) is not None}
    intervals = re.search(r'^\t"intervals":\s*\[', text, re.M)
    if intervals:
        report["intervals"] = units.decode_items(text, intervals.end())
    return report if "start" in report or "end" in report else None


def _describe(report: dict[str, Any]) -> dict[str, Any]:
    """What the run was: protocol, streams, block size, offered bitrate, version."""
    test = units.dig_dict(report, "start", "test_start")
    protocol = str(test.get("protocol", "")).lower() or None
    streams, blksize = units.dig_number(test, "num_streams"), units.dig_number(test, "blksize")
    per_stream = units.dig_number(test, "target_bitrate")
    return {
        "protocol": protocol,
        "streams": int(streams) if streams is not None else None,
        "blksize": int(blksize) if blksize is not None else None,
        "reverse": bool(test.get("reverse")) if "reverse" in test else None,
        "target_bitrate_per_stream": per_stream,
        "offered_bps": per_stream * streams if per_stream and streams else None,
        "version": parse_version(str(units.dig(report, "start", "version") or "")),
    }


def _end_metrics(end: Any, protocol: str | None) -> dict[str, float | None]:
    """Receiver-side throughput (and UDP loss/jitter), TCP retransmits from the sender."""
    received, sent = units.dig(end, "sum_received"), units.dig(end, "sum_sent")
    if not isinstance(received, dict):
        return {}
    throughput = receiver_bps(end)
    metrics: dict[str, float | None] = {"throughput_bps": throughput, "achieved_rate": throughput}
    if protocol == "tcp":
        metrics["retransmits"] = units.dig_number(sent, "retransmits")
    elif protocol == "udp":
        metrics["sent"] = units.dig_number(sent, "packets")
        metrics.update(_udp_receiver(received if throughput is not None else {}))
    return metrics


def _udp_receiver(received: dict[str, Any]) -> dict[str, float | None]:
    """Loss and jitter as the receiver saw them ("packets" there = datagrams expected)."""
    expected = units.dig_number(received, "packets")
    lost = units.dig_number(received, "lost_packets")
    return {
        "lost": lost,
        "completed": expected - lost if expected is not None and lost is not None else None,
        "loss_pct": units.dig_number(received, "lost_percent"),
        "jitter_ms": units.dig_number(received, "jitter_ms"),
    }


def receiver_bps(end: Any) -> float | None:
    """end.sum_received bits/s; None when an interrupted client never got the server's totals."""
    received = units.dig_number(end, "sum_received", "bits_per_second")
    if not units.dig_number(end, "sum_received", "bytes") and units.dig_number(end, "sum_sent", "bytes"):
        return None  # SIGTERM: iperf3 still prints JSON, with sum_received all zero
    return received


def _end_extra(end: Any) -> dict[str, Any]:
    """Both sides' bitrates and both hosts' CPU use."""
    return {
        "sender_bps": units.dig_number(end, "sum_sent", "bits_per_second"),
        "receiver_bps": receiver_bps(end),
        "cpu_host_total_pct": units.dig_number(end, "cpu_utilization_percent", "host_total"),
        "cpu_remote_total_pct": units.dig_number(end, "cpu_utilization_percent", "remote_total"),
    }


def _interval_samples(report: dict[str, Any]) -> list[Sample]:
    """One Sample per reporting interval (all streams summed), t = test start + interval end."""
    started = units.dig_number(report, "start", "timestamp", "timesecs")
    intervals = report.get("intervals")
    if started is None or not isinstance(intervals, list):
        return []
    samples = []
    for interval in intervals:
        total = units.dig(interval, "sum")
        end = units.dig_number(total, "end")
        if end is None or total.get("omitted") is True:
            continue
        values = {"throughput_bps": units.dig_number(total, "bits_per_second"),
                  "bytes": units.dig_number(total, "bytes")}
        for source, name in (("retransmits", "retransmits"), ("packets", "packets"),
                             ("lost_packets", "lost"), ("lost_percent", "loss_pct"),
                             ("jitter_ms", "jitter_ms")):
            if source in total:
                values[name] = units.dig_number(total, source)
        samples.append(Sample(t=started + end, values=values))
    return samples


class Iperf3(ToolAdapter):
    """iperf3: `concurrency` = parallel streams (-P), `rate` = total bits/s (-b is per stream)."""

    name, title, target_kinds = "iperf3", "Network (iperf3)", ("net",)
    Params = Iperf3Params
    concurrency_label, max_concurrency = "streams", MAX_STREAMS
    whole_seconds = True
    output_limit = 16 * 1_048_576  # --json keeps every interval of every stream in one document
    version_argv, version_pattern = ["iperf3", "--version"], _RE_VERSION
    parser_version = PARSER_VERSION
    metrics = (
        Metric("throughput_bps", "Throughput", "bit/s", "higher", headline=True),
        Metric("achieved_rate", "Achieved", "bit/s", "higher"),
        Metric("loss_pct", "Loss", "%", "lower"),
        Metric("jitter_ms", "Jitter", "ms", "lower"),
        Metric("retransmits", "Retransmits", "count", "lower"),
        Metric("sent", "Datagrams sent", "count"),
        Metric("completed", "Datagrams received", "count", "higher"),
        Metric("lost", "Datagrams lost", "count", "lower"),
    )

    def check_points(self, params: Iperf3Params, points, host: str | None) -> list[Problem]:
        """A total rate must fit iperf3's -b and give each stream at least 1 bit/s."""
        problems = super().check_points(params, points, host)
        for point in points:
            rate = point.offered_rate
            if rate is not None and (rate > MAX_RATE_BPS or rate / max(1, point.concurrency) < 1):
                problems.append(((*phase_loc(point), "rate"), f"{rate:g} bit/s over {point.concurrency} streams: each stream needs 1 bit/s..{MAX_RATE_BPS:g} in all"))
        return problems

    def argv(self, spec: PointSpec, params: Iperf3Params, workdir: pathlib.Path) -> list[str]:
        """iperf3 client argv (`rate` is the TOTAL offered bits/s)."""
        host = units.require_host("host", spec.host)
        argv = ["iperf3", "-c", host, "-p", str(spec.port), "-t", str(int(spec.duration_s)), "-P", str(spec.concurrency),
                "-b", str(per_stream_bitrate(spec.rate, spec.concurrency)), "--json"]
        argv += ["-u"] if params.protocol == "udp" else []
        argv += ["-R"] if params.reverse else []
        return argv + (["-l", str(params.length)] if params.length is not None else [])

    parse_final = staticmethod(parse)


ADAPTER = Iperf3()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
