"""devsim (Kneeboard's device simulator): build `devsim run` argv, parse its NDJSON.

devsim records every ack's latency in HDR histograms (µs): the summary line carries the whole
run's (`hdr`, stored as extra `hdr`), each interval line of the reporting phase its own
(stored as `hdr_intervals`); the percentiles it prints are read from those same histograms.
"""

from __future__ import annotations

import ipaddress
import json
import re
import signal
from pathlib import Path
from typing import Any

from kneeboard.tools import binaries, units
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError
from kneeboard.tools.contract import Metric, Problem, ToolAdapter, phase_loc
from kneeboard.tools.devsim.params import DevsimParams

PARSER_VERSION = "2"
MAX_RATE = 10_000_000
BUILT_IN_PROFILES = ("singlelight",)
_VERSION = re.compile(r"devsim (\d\S*)")


def binary() -> str:
    """The devsim binary: $DEVSIM_BIN, the checkout's simulator/bin/devsim, or `devsim` on PATH."""
    return binaries.find("devsim", "DEVSIM_BIN") or "devsim"


def _report_interval(line: str) -> dict[str, Any] | None:
    """One interval line of the reporting phase as a record, else None."""
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("summary") or record.get("phase") != "report":
        return None
    return record


def parse_line(line: str) -> Sample | None:
    """One interval line of the reporting phase as a live sample."""
    record = _report_interval(line)
    if record is None:
        return None
    return Sample(t=float(record["t"]), values={
        "achieved_rate": record.get("rate_acked"), "sent_rate": record.get("rate_sent"), "connected": record.get("connected"),
        "latency_avg_ms": record.get("ack_avg_ms"), **_percentiles(record, record.get("acked")),
        "failed": float(sum((record.get("failed") or {}).values())),
    })  # fmt: skip


def _percentiles(record: dict[str, Any], acked: Any) -> dict[str, float | None]:
    """A line's ack-latency percentiles under Kneeboard's metric names; None without acks (or from an older devsim)."""
    return units.percentiles(record if acked else None, prefix="ack_")


def _interval_histograms(stdout: str) -> list[list[Any]]:
    """[[t, hdr], ...] of the reporting phase's interval lines that acked something."""
    records = (_report_interval(line) for line in stdout.splitlines())
    return [[r["t"], r["hdr"]] for r in records if r is not None and r.get("hdr") and r.get("acked")]


def _summary(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith('{"summary":true'):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The summary line as common metrics (achieved = acked reports/s, latency = ack latency) and device extras."""
    result = PointResult(parser_version=PARSER_VERSION, samples=[s for line in stdout.splitlines() if (s := parse_line(line))])
    message = next((line for line in stderr.splitlines() if line.startswith("devsim")), stderr.strip()[:300])
    summary = _summary(stdout)
    if summary is None:
        result.error = f"devsim exited with code {exit_code} and no summary: {message or 'no output'}"
        return result
    sent, acked = summary.get("sent", 0), summary.get("acked", 0)
    failed = summary.get("failed") or {}
    result.metrics = {
        "achieved_rate": summary.get("achieved_rate"), "sent": float(sent), "completed": float(acked),
        "lost": float(max(0, sent - acked)), "loss_pct": 100.0 * (sent - acked) / sent if sent else None,
        "errors": float(sum(failed.values())), "latency_avg_ms": summary.get("ack_avg_ms") if acked else None,
        **_percentiles(summary, acked), "latency_max_ms": summary.get("ack_max_ms") if acked else None,
    }  # fmt: skip
    result.extra = {k: summary.get(k) for k in ("devices", "connected_max", "logins", "failed", "unmatched", "skipped", "ramp_s",
                                                 "elapsed_s", "procs", "cpu_s", "rss_peak_kib")}  # fmt: skip
    if summary.get("hdr"):
        result.extra.update(hdr=summary["hdr"], hdr_intervals=_interval_histograms(stdout))
    result.extra["warnings"] = [f"{n} device(s) failed: {reason}" for reason, n in failed.items()]
    if exit_code not in (0, None) or not summary.get("logins"):
        result.error = message or f"devsim exited with code {exit_code}"
    return result


def _is_loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class Devsim(ToolAdapter):
    """devsim: `concurrency` = devices, a phase's `rate` = reports/s per device (a point offers the total)."""

    name, title, target_kinds = "devsim", "Devices (devsim)", ("device",)
    work_unit = ("1,000 reports", 1000.0)
    Params = DevsimParams
    concurrency_label, max_concurrency = "devices", 1_000_000
    rate_per_concurrency = True
    stored_profile_param = "profile"
    stop_signal = signal.SIGINT  # devsim prints its summary on SIGINT/SIGTERM alike; SIGINT is its documented stop
    version_pattern = _VERSION
    parser_version = PARSER_VERSION
    live_samples = True
    metrics = (
        Metric("achieved_rate", "Acked", "reports/s", "higher", headline=True),
        Metric("latency_avg_ms", "Ack latency avg", "ms", "lower"),
        Metric("latency_p50_ms", "Ack latency p50", "ms", "lower"),
        Metric("latency_p90_ms", "Ack latency p90", "ms", "lower"),
        Metric("latency_p99_ms", "Ack latency p99", "ms", "lower"),
        Metric("latency_p999_ms", "Ack latency p99.9", "ms", "lower"),
        Metric("latency_max_ms", "Ack latency max", "ms", "lower"),
        Metric("sent", "Reports sent", "count"),
        Metric("completed", "Reports acked", "count", "higher"),
        Metric("lost", "Reports not acked", "count", "lower"),
        Metric("loss_pct", "Not acked", "%", "lower"),
        Metric("errors", "Failed devices", "count", "lower"),
    )

    @property
    def version_argv(self) -> list[str]:  # type: ignore[override]
        """`devsim version`, from wherever the binary is found now."""
        return [binary(), "version"]

    def check_points(self, params: DevsimParams, points, host: str | None) -> list[Problem]:
        """Several source addresses only towards loopback; at most MAX_RATE reports/s; whole-second durations ≥ 1 s."""
        problems = super().check_points(params, points, host)
        if params.source_ips > 1 and host is not None and ":" in host:
            problems.append((("params", "source_ips"), f"several source addresses are IPv4 loopback ones (127.0.0.x): not towards {host!r}"))
        elif params.source_ips > 1 and not _is_loopback(host):
            problems.append((("params", "source_ips"), f"{params.source_ips} source addresses only work towards a loopback target, not {host!r}"))
        for point in points:
            if point.offered_rate is not None and point.offered_rate > MAX_RATE:
                problems.append(((*phase_loc(point), "rate"), f"at most {MAX_RATE} reports/s in all, got {point.offered_rate:g}"))
            if point.duration_s < 1:
                problems.append(((*phase_loc(point), "duration_s"), "devsim points last at least 1 s"))
        return problems

    def setup_s(self, spec: PointSpec) -> float:
        """The connection ramp (devices / ramp_per_s) and one login timeout come before the reporting `duration_s`."""
        params = self.read_params(spec.params)
        return spec.concurrency / params.ramp_per_s + params.login_timeout_s

    def argv(self, spec: PointSpec, params: DevsimParams, workdir: Path) -> list[str]:
        """`devsim run` argv for `concurrency` devices offering `rate` reports/s in all."""
        argv = [binary(), "run", "--target", units.host_port(spec.host, spec.port), "--devices", str(spec.concurrency),
                "--start-id", str(params.start_id), "--ramp", str(params.ramp_per_s), "--duration", f"{spec.duration_s:g}s",
                "--report-every", "1s", "--login-timeout", f"{params.login_timeout_s:g}s", "--procs", str(params.procs)]
        if spec.rate is not None:
            argv += ["--rate", f"{spec.rate:g}"]
        if params.source_ips > 1:
            argv += ["--source-ips", ",".join(f"127.0.0.{i + 2}" for i in range(params.source_ips))]
        document = spec.documents.get("profile")
        if document is not None:
            workdir.mkdir(parents=True, exist_ok=True)
            (workdir / "profile.json").write_text(json.dumps(document))
            return argv + ["--profile-file", str(workdir / "profile.json")]
        if params.profile not in BUILT_IN_PROFILES:
            raise ToolInputError(f"params.profile: {params.profile!r} is not built in and no profile document was given")
        return argv + ["--profile", params.profile]

    parse_interval = staticmethod(parse_line)

    parse_final = staticmethod(parse)


ADAPTER = Devsim()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
