"""iperf3 (TCP/UDP throughput): build the argv, parse its --json report."""

from __future__ import annotations

import pathlib
import re
from typing import Any

from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError

PARSER_VERSION = "1"
OUTPUT_LIMIT = 16 * 1_048_576  # --json keeps every interval of every stream in one document
VERSION_ARGV = ["iperf3", "--version"]
KNOWN_PARAMS = ("protocol", "reverse", "length")
MAX_STREAMS = 128  # iperf3's own limit for -P
MAX_RATE_BPS = 1e12
MAX_LENGTH = {"tcp": 1024 * 1024, "udp": 65_507}  # -l: TCP buffer / largest UDP payload

_RE_VERSION = re.compile(r"iperf (\d[\w.+~-]*)")


# --- build ----------------------------------------------------------------------


def build(spec: PointSpec, workdir: pathlib.Path) -> list[str]:
    """Validated PointSpec → iperf3 client argv (`rate` is the TOTAL offered bits/s)."""
    params = spec.params or {}
    units.require_known_params("iperf3", params, KNOWN_PARAMS)
    host = units.require_host("host", spec.host)
    port = units.require_int("port", spec.port, 1, 65_535)
    streams = units.require_int("concurrency", spec.concurrency, 1, MAX_STREAMS)
    duration = units.require_int("duration_s", spec.duration_s, 1, 86_400)
    protocol = units.require_choice("params.protocol", params.get("protocol", "tcp"), ("tcp", "udp"))
    argv = ["iperf3", "-c", host, "-p", str(port), "-t", str(duration), "-P", str(streams),
            "-b", str(per_stream_bitrate(spec.rate, streams)), "--json"]
    if protocol == "udp":
        argv.append("-u")
    if units.require_bool("params.reverse", params.get("reverse", False)):
        argv.append("-R")
    if params.get("length") is not None:
        length = units.require_int("params.length", params["length"], 16, MAX_LENGTH[protocol])
        argv += ["-l", str(length)]
    return argv


def per_stream_bitrate(rate: float | None, streams: int) -> int:
    """iperf3's -b is per stream: TOTAL offered bits/s ÷ streams; 0 (unlimited) when no rate."""
    if rate is None:
        return 0
    total = units.require_number("rate", rate, 1, MAX_RATE_BPS)
    per_stream = round(total / streams)
    if per_stream < 1:
        raise ToolInputError(f"rate: {rate!r} bits/s is less than 1 bit/s for each of {streams} streams")
    return per_stream


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


def parse_version(text: str) -> str | None:
    """`iperf 3.12 (cJSON 1.7.15)` (or JSON start.version `iperf 3.12`) → `3.12`."""
    return units.first_group(_RE_VERSION, text)


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
