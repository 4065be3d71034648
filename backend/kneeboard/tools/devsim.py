"""devsim (Kneeboard's device simulator): build `devsim run` argv, parse its NDJSON."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import signal
from pathlib import Path
from typing import Any

from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError

NAME = "devsim"
PARSER_VERSION = "1"
STOP_SIGNAL = signal.SIGINT  # devsim prints its summary on SIGINT/SIGTERM alike; SIGINT is its documented stop
BUILT_IN_PROFILES = ("singlelight",)
_REPO_BINARY = Path(__file__).resolve().parents[3] / "simulator" / "bin" / "devsim"
_VERSION = re.compile(r"devsim (\d\S*)")


def binary() -> str:
    """The devsim binary: $DEVSIM_BIN, the checkout's simulator/bin/devsim, or `devsim` on PATH."""
    if os.environ.get("DEVSIM_BIN"):
        return os.environ["DEVSIM_BIN"]
    return str(_REPO_BINARY) if _REPO_BINARY.exists() else (shutil.which("devsim") or "devsim")


VERSION_ARGV = [binary(), "version"]


def _source_ips(host: str, count: int) -> list[str]:
    if count == 1:
        return []
    if not ipaddress.ip_address(host).is_loopback:
        raise ToolInputError("params.source_ips: more than one source address only works towards a loopback target")
    return [f"127.0.0.{i + 2}" for i in range(count)]


def build(spec: PointSpec, workdir: Path) -> list[str]:
    """argv for one device point: `concurrency` devices offering `rate` reports/s in all."""
    params = spec.params or {}
    devices = units.require_int("concurrency", spec.concurrency, 1, 1_000_000)
    duration = units.require_number("duration_s", spec.duration_s, 1, 86_400)
    argv = [binary(), "run", "--target", f"{spec.host}:{spec.port}", "--devices", str(devices),
            "--start-id", str(units.require_int("params.start_id", params.get("start_id", 1), 1, 999_999_999_999)),
            "--ramp", str(units.require_int("params.ramp_per_s", params.get("ramp_per_s", 5000), 1, 1_000_000)),
            "--duration", f"{duration:g}s", "--report-every", "1s",
            "--login-timeout", f"{units.require_number('params.login_timeout_s', params.get('login_timeout_s', 5), 0.1, 120):g}s",
            "--procs", str(units.require_int("params.procs", params.get("procs", 1), 1, 16))]  # fmt: skip
    if spec.rate is not None:
        argv += ["--rate", f"{units.require_number('rate', spec.rate, 0.001, 10_000_000):g}"]
    sources = _source_ips(spec.host, units.require_int("params.source_ips", params.get("source_ips", 1), 1, 16))
    if sources:
        argv += ["--source-ips", ",".join(sources)]
    document = params.get("profile_document")
    if document is not None:
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / "profile.json").write_text(json.dumps(document))
        argv += ["--profile-file", str(workdir / "profile.json")]
    else:
        profile = params.get("profile", "singlelight")
        if profile not in BUILT_IN_PROFILES:
            raise ToolInputError(f"params.profile: {profile!r} is not built in and no profile document was given")
        argv += ["--profile", profile]
    return argv


def parse_line(line: str) -> Sample | None:
    """One interval line of the reporting phase as a live sample."""
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if record.get("summary") or record.get("phase") != "report":
        return None
    return Sample(t=float(record["t"]), values={
        "achieved_rate": record.get("rate_acked"), "sent_rate": record.get("rate_sent"), "connected": record.get("connected"),
        "latency_avg_ms": record.get("ack_avg_ms"), "latency_p50_ms": record.get("ack_p50_ms"), "latency_p99_ms": record.get("ack_p99_ms"),
        "failed": float(sum((record.get("failed") or {}).values())),
    })  # fmt: skip


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
        "latency_p50_ms": summary.get("ack_p50_ms") if acked else None, "latency_p90_ms": summary.get("ack_p90_ms") if acked else None,
        "latency_p99_ms": summary.get("ack_p99_ms") if acked else None, "latency_max_ms": summary.get("ack_max_ms") if acked else None,
    }  # fmt: skip
    result.extra = {k: summary.get(k) for k in ("devices", "connected_max", "logins", "failed", "unmatched", "skipped", "ramp_s",
                                                 "elapsed_s", "procs", "cpu_s", "rss_peak_kib")}  # fmt: skip
    result.extra["warnings"] = [f"{n} device(s) failed: {reason}" for reason, n in failed.items()]
    if exit_code not in (0, None) or not summary.get("logins"):
        result.error = message or f"devsim exited with code {exit_code}"
    return result


def parse_version(text: str) -> str | None:
    """`devsim 0.1.0` → `0.1.0`."""
    return units.first_group(_VERSION, text)
