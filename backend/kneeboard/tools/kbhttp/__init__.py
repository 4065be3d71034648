"""kbhttp (HTTP, open loop): build `kbhttp run`, read its JSON lines.

kbhttp (simulator/cmd/kbhttp, built by scripts/install-deps.sh) sends a fixed rate of requests
whatever the server does, and measures each one's latency from the moment it was meant to be
sent: a stalled server shows in the tail. wrk, closed loop, just sends less while the server
stalls (coordinated omission). Each interval line and the point line carry an HDR histogram.

Three times per request: the response time from its intended send time (latency_*: what a user
sees, queueing behind busy connections and the generator's own lateness included), the service
time from its actual send (service_*: the server's share), and the generator's lateness (actual
minus intended send). A point where the generator was late (p99 lateness > 1 ms) or could not send
(dropped) says so: its response times then hold the generator's delay, not only the server's.
For https, SNI and verification use the target's name; a CA bundle given as PEM text is written
to a file Kneeboard names in the point's workdir. With `outcomes` (or `count_header`) kbhttp also writes every
request's outcome per 10 ms of its intended send time to a file Kneeboard names in the workdir (outcomes.py), read
after the point into extra["outcomes"] (docs/failover.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kneeboard.analysis.generator import Sending
from kneeboard.tools import binaries, units
from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.kbhttp import outcomes
from kneeboard.tools.contract import Metric, PlannedPoint, Problem, ToolAdapter, phase_loc
from kneeboard.tools.kbhttp.params import KbhttpParams
from kneeboard.tools.runner import RunOutcome
from kneeboard.tools.units import url_host
from kneeboard.tools.wrk import target_url

PARSER_VERSION = "2"
MAX_RATE = 1_000_000  # kbhttp's own ceiling (simulator/internal/httpload/flags.go)
_VERSION = re.compile(r'(?:^kbhttp |"version":")(\d[\w.+-]*)', re.M)  # `kbhttp version`, or any point line
_ERROR_KINDS = ("status", "timeout", "connect", "tls", "other")
LATE_P99_MS = 1.0  # the generator's p99 lateness above which the point warns that the generator was the bottleneck
CA_FILE = "kbhttp-ca.pem"  # the CA bundle's file in the point's workdir (the name is Kneeboard's, never the plan's)
_LIVE = ("service_p50_ms", "service_p99_ms", "lateness_p99_ms", "queued", "handshakes")  # kbhttp ≥ 0.2's interval extras
_SUMMARY = (("avg", "avg_ms"), ("min", "min_ms"), ("max", "max_ms"))
_OWN_SOCKETS = re.compile(r"assign requested address|too many open files|no buffer space", re.I)  # connect errors of the generator's own


def binary() -> str:
    """The kbhttp binary: $KBHTTP_BIN, the checkout's simulator/bin/kbhttp, or `kbhttp` on PATH."""
    return binaries.find("kbhttp", "KBHTTP_BIN") or "kbhttp"


def record(line: str) -> dict[str, Any] | None:
    """One kbhttp JSON line ({"kbhttp": "interval"|"point", ...}), else None."""
    if not line.startswith('{"kbhttp"'):
        return None
    try:
        found = json.loads(line)
    except ValueError:
        return None
    return found if isinstance(found, dict) and found.get("kbhttp") in {"interval", "point"} else None


def _sample(interval: dict[str, Any]) -> Sample:
    counts = {key: interval.get(key) for key in ("sent", "completed", "errors")}
    extras = {key: interval[key] for key in _LIVE if key in interval}
    return Sample(t=float(interval["t"]), values={"achieved_rate": interval.get("rate"), **units.percentiles(interval), **counts, **extras})


def parse_line(line: str) -> Sample | None:
    """One interval line as a live sample (achieved rate, the four percentiles, counts), else None."""
    found = record(line)
    return _sample(found) if found is not None and found["kbhttp"] == "interval" else None


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The point line as common metrics (ms, req/s) and the histograms as extras; an error when nothing was measured."""
    records = [r for line in (stdout or "").splitlines() if (r := record(line))]
    intervals = [r for r in records if r["kbhttp"] == "interval"]
    result = PointResult(parser_version=PARSER_VERSION, samples=[_sample(r) for r in intervals])
    point = next((r for r in reversed(records) if r["kbhttp"] == "point"), None)
    if point is None:
        result.error = (f"kbhttp stopped before its point line (exit code {exit_code}); {len(intervals)} interval lines kept"
                        if intervals else units.failure_reason("kbhttp", stderr, exit_code))  # fmt: skip
        return result
    sent, completed, dropped = (int(point.get(key) or 0) for key in ("sent", "completed", "dropped"))
    intended = sent + dropped
    result.metrics = {
        "achieved_rate": point.get("achieved_rate"), "latency_avg_ms": point.get("avg_ms"), "latency_min_ms": point.get("min_ms"),
        "latency_max_ms": point.get("max_ms"), **units.percentiles(point), "sent": float(sent), "completed": float(completed),
        "errors": float(point.get("errors_total") or 0), "dropped": float(dropped),
        "loss_pct": 100.0 * (intended - completed) / intended if intended else None,
        **_distribution(point, "service"), **_distribution(point, "lateness"),
        **{key: float(point[key]) for key in ("queued", "handshakes", "handshakes_resumed") if key in point},
    }  # fmt: skip
    errors = {kind: int(units.dig_number(point, "errors", kind) or 0) for kind in _ERROR_KINDS}
    first = point.get("first_errors") if isinstance(point.get("first_errors"), dict) else {}
    result.extra = {"errors": errors, "first_errors": first, "offered_rate": point.get("offered_rate"),
                    "connections": point.get("connections"), "elapsed_s": point.get("elapsed_s"),
                    "cancelled": point.get("cancelled"), "tls": point.get("tls"),
                    "warnings": _warnings(point, errors, first, intended, result.metrics)}  # fmt: skip
    for name in ("service", "lateness"):
        if isinstance(point.get(name), dict) and point[name].get("p50_ms") is not None:
            result.extra[f"{name}_hdr"] = point[name].get("hdr")
    if completed:
        result.extra["hdr"] = point.get("hdr")
        result.extra["hdr_intervals"] = [[r["t"], r["hdr"]] for r in intervals if r.get("completed")]
    result.error = _error(exit_code, stderr, sent, completed, errors, first)
    return result


def _error(exit_code: int | None, stderr: str, sent: int, completed: int, errors: dict[str, int], first: dict) -> str | None:
    """Why the point measured nothing worth keeping, or None."""
    if exit_code not in (0, None):
        return units.failure_reason("kbhttp", stderr, exit_code)
    if not completed and errors.get("tls"):
        return f"TLS handshake failed, no responses ({errors['tls']} of {sent} requests): {first.get('tls', '?')}"
    if not completed:
        why = "; ".join(f"{kind} errors {n}: {first.get(kind, '?')}" for kind, n in errors.items() if n) or "no error recorded"
        return f"no responses: {sent} requests sent, none answered ({why})"
    if errors["status"] == completed:
        return f"every response had a non-2xx/3xx status ({first.get('status', '?')})"
    return None


def _distribution(point: dict[str, Any], name: str) -> dict[str, float | None]:
    """The point line's `service` or `lateness` block as `{name}_p50_ms`… (absent before kbhttp 0.2)."""
    block = point.get(name)
    if not isinstance(block, dict):
        return {}
    found = {key.replace("latency_", f"{name}_"): value for key, value in units.percentiles(block).items()}
    return {**found, **{f"{name}_{short}_ms": block.get(key) for short, key in _SUMMARY}}


def _warnings(point: dict[str, Any], errors: dict[str, int], first: dict, intended: int, metrics: dict) -> list[str]:
    warnings = [f"{n} {kind} errors (first: {first.get(kind, '?')})" for kind, n in errors.items() if n]
    late = metrics.get("lateness_p99_ms")
    if late is not None and late > LATE_P99_MS:
        warnings.append(f"the load generator was the bottleneck: it sent late (p99 lateness {late:g} ms > {LATE_P99_MS:g} ms); "
                        "the response times include its own delay: the service time (from the actual send) is the server's share")  # fmt: skip
    if point.get("queued"):
        warnings.append(f"{point['queued']} requests waited for a free connection (every connection was busy when they were due)")
    tls = point.get("tls") if isinstance(point.get("tls"), dict) else {}
    if tls.get("verify") == "skipped":
        warnings.append(f"TLS certificate verification was skipped (tls_skip_verify): the server's identity ({tls.get('server_name')}) was not checked")
    if point.get("dropped"):
        warnings.append(f"the load generator was the bottleneck: {point['dropped']} of {intended} intended requests were never sent: all {point.get('connections')} "
                        "connections were busy (the server answered slower than the offered rate; more connections would offer it)")  # fmt: skip
    if point.get("cancelled"):
        warnings.append(f"{point['cancelled']} requests were still in flight when the run was stopped")
    return warnings


def _tls_flags(params: KbhttpParams, workdir: Path) -> list[str]:
    """--ca (the PEM text written to a file Kneeboard names), --insecure, --no-resume."""
    flags = []
    if params.ca_pem:
        workdir.mkdir(parents=True, exist_ok=True)
        bundle = workdir / CA_FILE
        bundle.write_text(params.ca_pem)
        flags += ["--ca", str(bundle)]
    return flags + (["--insecure"] if params.tls_skip_verify else []) + ([] if params.tls_resumption else ["--no-resume"])


def _outcome_flags(params: KbhttpParams, workdir: Path) -> list[str]:
    """--outcomes (a file Kneeboard names in the workdir, any earlier attempt's removed), --count-header, --cookies."""
    flags = []
    if params.outcomes or params.count_header:
        path = (workdir / outcomes.FILE).absolute()
        path.unlink(missing_ok=True)
        flags += ["--outcomes", str(path), *(["--count-header", params.count_header] if params.count_header else [])]
    return flags + (["--cookies"] if params.cookies else [])


def _outcome_file(argv: list[str]) -> Path | None:
    """The outcome file the argv named (Kneeboard's own path, see _outcome_flags), or None."""
    return Path(argv[argv.index("--outcomes") + 1]) if "--outcomes" in argv[:-1] else None


def _go_duration(seconds: float) -> str:
    """A Go duration flag: 5 → "5s", 2.25 → "2.25s" (never exponent notation)."""
    return f"{seconds:.6f}".rstrip("0").rstrip(".") + "s"


class Kbhttp(ToolAdapter):
    """kbhttp: open loop, `rate` = requests/s in all (required), `concurrency` = connections."""

    name, title, target_kinds = "kbhttp", "HTTP open loop (kbhttp)", ("http",)
    work_unit = ("1,000 requests", 1000.0)
    Params = KbhttpParams
    concurrency_label = "connections"
    live_samples = True  # each interval line is written (and flushed) on its own
    version_pattern = _VERSION
    parser_version = PARSER_VERSION
    metrics = (
        Metric("achieved_rate", "Achieved", "req/s", "higher", headline=True),
        Metric("latency_avg_ms", "Latency avg", "ms", "lower"),
        Metric("latency_min_ms", "Latency min", "ms", "lower"),
        Metric("latency_max_ms", "Latency max", "ms", "lower"),
        Metric("latency_p50_ms", "Latency p50", "ms", "lower"),
        Metric("latency_p90_ms", "Latency p90", "ms", "lower"),
        Metric("latency_p99_ms", "Latency p99", "ms", "lower"),
        Metric("latency_p999_ms", "Latency p99.9", "ms", "lower"),
        Metric("sent", "Requests sent", "count"),
        Metric("completed", "Responses", "count", "higher"),
        Metric("errors", "Errors (status, timeout, connect, other)", "count", "lower"),
        Metric("dropped", "Never sent (connections busy)", "count", "lower"),
        Metric("loss_pct", "Unanswered (of intended)", "%", "lower"),
        Metric("service_avg_ms", "Service time avg (from the actual send)", "ms", "lower"),
        Metric("service_p50_ms", "Service time p50", "ms", "lower"),
        Metric("service_p90_ms", "Service time p90", "ms", "lower"),
        Metric("service_p99_ms", "Service time p99", "ms", "lower"),
        Metric("service_p999_ms", "Service time p99.9", "ms", "lower"),
        Metric("lateness_p50_ms", "Generator lateness p50 (actual − intended send)", "ms", "lower"),
        Metric("lateness_p99_ms", "Generator lateness p99", "ms", "lower"),
        Metric("lateness_max_ms", "Generator lateness max", "ms", "lower"),
        Metric("queued", "Waited for a free connection", "count", "lower"),
        Metric("handshakes", "TLS handshakes", "count"),
        Metric("handshakes_resumed", "TLS handshakes resumed", "count"),
    )

    @property
    def version_argv(self) -> list[str]:  # type: ignore[override]
        """`kbhttp version`, from wherever the binary is found now."""
        return [binary(), "version"]

    def check_points(self, params: KbhttpParams, points, host: str | None) -> list[Problem]:
        """An open-loop point needs a rate, at most MAX_RATE requests/s."""
        problems = super().check_points(params, points, host)
        seen = {loc for loc, _ in problems}
        for point in points:
            loc = (*phase_loc(point), "rate")
            if point.offered_rate is None:
                message = "kbhttp is open-loop: every point needs a rate (requests/s in all)"
            elif point.offered_rate > MAX_RATE:
                message = f"kbhttp sends at most {MAX_RATE} requests/s, got {point.offered_rate:g}"
            else:
                continue
            if loc not in seen:  # one problem per phase, not one per point of a sweep
                problems.append((loc, message))
                seen.add(loc)
        return problems

    def argv(self, spec: PointSpec, params: KbhttpParams, workdir: Path) -> list[str]:
        """`kbhttp run` argv: `rate` requests/s through `concurrency` keep-alive connections for the duration;
        https flags from the parameters (a CA bundle written to CA_FILE in `workdir`)."""
        return [binary(), "run", "--url", target_url(spec, params), "--rate", f"{spec.rate:.12g}",
                "--duration", _go_duration(spec.duration_s), "--connections", str(spec.concurrency),
                "--timeout", _go_duration(params.timeout_s), "--method", params.method, "--report-every", "1s",
                *(["--host", f"{url_host(spec.host_name)}:{spec.port}"] if spec.host_name else []), *_tls_flags(params, workdir),
                *_outcome_flags(params, workdir)]  # fmt: skip

    def read(self, outcome: RunOutcome) -> PointResult:
        """The run's result, with the outcome file (when the argv asked for one) as extra["outcomes"]; a missing or
        cut file is a warning, never a failed point."""
        result = super().read(outcome)
        path = _outcome_file(outcome.argv)
        if path is None or (outcome.error and outcome.exit_code is None):
            return result
        found = outcomes.read_file(path)
        warnings = list(result.extra.get("warnings") or [])
        if found is None:
            warnings.append("kbhttp wrote no outcome file: the outcomes per 10 ms are missing")
        else:
            text, cut = found
            stored, problems = outcomes.parse(text)
            warnings += ([f"the outcome file is larger than {outcomes.MAX_BYTES >> 20} MiB: only its beginning was read"] if cut else []) + problems
            if stored is not None:
                result.extra["outcomes"] = stored
        result.extra["warnings"] = warnings
        return result

    def sending(self, point: PlannedPoint, params: KbhttpParams, result: PointResult) -> Sending | None:
        """Asked: the rate × the duration; the cap: one request in flight per connection, held for the service time."""
        sent = result.metrics.get("sent")
        if point.offered_rate is None or sent is None:
            return None
        first_connect = str((result.extra.get("first_errors") or {}).get("connect") or "")
        own = int((result.extra.get("errors") or {}).get("connect") or 0) if _OWN_SOCKETS.search(first_connect) else 0
        service = result.metrics.get("service_avg_ms")
        return Sending(tool=self.name, unit="requests", rate_unit=self.rate_unit, offered_rate=point.offered_rate,
                       duration_s=point.duration_s, asked=point.offered_rate * point.duration_s, sent=sent,
                       lost=float((result.extra.get("errors") or {}).get("timeout") or 0), timeout_s=params.timeout_s,
                       latency_ms=service if service is not None else result.metrics.get("latency_avg_ms"),
                       cap=point.concurrency, cap_param="concurrency", cap_label="connections (one request in flight each)",
                       cap_max=self.max_concurrency, socket_failures=own, socket_detail=first_connect or None)  # fmt: skip

    parse_interval = staticmethod(parse_line)
    parse_final = staticmethod(parse)


ADAPTER = Kbhttp()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
