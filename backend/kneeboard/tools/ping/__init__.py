"""ping (monitor, rtt and loss): build the argv, parse replies live and the summary at the end."""

from __future__ import annotations

import math
import pathlib
import re

from kneeboard.tools import units
from pydantic import BaseModel, ConfigDict

from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.tools.contract import Metric, Problem, Role, ToolAdapter
from kneeboard.validators import Host

PARSER_VERSION = "1"
INTERVAL_S = 0.2  # allowed unprivileged since iputils 20210202 (earlier: root only)
REPLY_WAIT_S = 1

_NUM = r"\d+(?:\.\d+)?"
_RE_REPLY = re.compile(
    rf"^(?:\[(?P<epoch>{_NUM})\]\s+)?\d+ bytes from .*?:? icmp_seq=(?P<seq>\d+)"
    rf".*?\btime[=<](?P<rtt>{_NUM}) ms(?P<dup>.*\(DUP!\))?")
_RE_HEADER = re.compile(r"^PING \S+", re.M)
_RE_COUNTS = re.compile(r"^(\d+) packets transmitted, (\d+) (?:packets )?received(.*)$", re.M)
_RE_LOSS = re.compile(rf"({_NUM})% packet loss")
_RE_ERRORS = re.compile(r"\+(\d+) errors")
_RE_RTT = re.compile(r"^(?:rtt|round-trip) min/avg/max/(?:mdev|stddev) = "
                     rf"({_NUM})/({_NUM})/({_NUM})/({_NUM}) ms", re.M)
_RE_VERSION = re.compile(r"iputils[- ](\S+)")
_RTT_NAMES = ("rtt_min_ms", "rtt_avg_ms", "rtt_max_ms", "rtt_mdev_ms")


# --- build ----------------------------------------------------------------------


# --- parse ----------------------------------------------------------------------


def parse_line(line: str) -> Sample | None:
    """One echo reply → Sample(series "ping", rtt_ms); t from ping -D, else seconds from the start.

    Without -D (e.g. captured output) t is (icmp_seq - 1) × 0.2 s, i.e. relative, not epoch.
    Duplicates and non-reply lines give None.
    """
    match = _RE_REPLY.match((line or "").strip())
    if match is None or match.group("dup"):
        return None
    epoch = match.group("epoch")
    t = float(epoch) if epoch else (int(match.group("seq")) - 1) * INTERVAL_S
    return Sample(t=t, values={"rtt_ms": float(match.group("rtt"))}, series="ping")


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """ping stdout → loss_pct, rtt extras and one sample per reply; unreachable is 100 % loss."""
    stdout = stdout or ""
    result = PointResult(parser_version=PARSER_VERSION)
    result.samples = [s for s in map(parse_line, stdout.splitlines()) if s is not None]
    counts = _RE_COUNTS.search(stdout)
    if counts is None and not result.samples:
        result.error = (units.failure_reason("ping", stderr, exit_code) if not _RE_HEADER.search(stdout)
                        else "ping: no replies and no statistics in the output")
        return result
    rtt = _RE_RTT.search(stdout)
    rtts = [float(v) for v in rtt.groups()] if rtt else _rtt_from(result.samples)
    result.extra = dict(zip(_RTT_NAMES, rtts))
    result.extra["relative_time"] = any("[" not in line for line in _reply_lines(stdout))
    if counts is None:  # cut off before the summary (killed): replies only
        result.metrics = {"loss_pct": None}
        result.extra.update(transmitted=None, received=len(result.samples), errors=None)
        return result
    loss = _RE_LOSS.search(counts.group(3))
    errors = _RE_ERRORS.search(counts.group(3))
    result.metrics = {"loss_pct": float(loss.group(1)) if loss else None}
    result.extra.update(transmitted=int(counts.group(1)), received=int(counts.group(2)),
                        errors=int(errors.group(1)) if errors else 0)
    return result


def _reply_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if _RE_REPLY.match(line.strip())]


def _rtt_from(samples: list[Sample]) -> list[float | None]:
    """min/avg/max/mdev of the replies themselves (when the summary line is missing)."""
    rtts = [s.values["rtt_ms"] for s in samples if s.values.get("rtt_ms") is not None]
    if not rtts:
        return [None, None, None, None]
    mean = sum(rtts) / len(rtts)
    mdev = math.sqrt(max(0.0, sum(r * r for r in rtts) / len(rtts) - mean * mean))
    return [min(rtts), mean, max(rtts), mdev]


class PingParams(BaseModel):
    """ping's own parameters: the host to watch."""

    model_config = ConfigDict(extra="forbid", strict=True, title="ping parameters")
    host: Host


class Ping(ToolAdapter):
    """ping beside every point: round-trip time per reply (series "ping") and loss."""

    name, title, role = "ping", "Round trip (ping)", Role.MONITOR
    Params = PingParams
    version_argv, version_pattern = ["ping", "-V"], _RE_VERSION
    parser_version = PARSER_VERSION
    live_samples = True
    metrics = (
        Metric("rtt_ms", "Round trip", "ms", "lower"),
        Metric("loss_pct", "Loss", "%", "lower"),
    )

    def check_points(self, params: PingParams, points, host: str | None) -> list[Problem]:
        """A ping run covers at least one echo interval."""
        problems = super().check_points(params, points, host)
        if any(p.duration_s < INTERVAL_S for p in points):
            problems.append((("duration_s",), f"at least {INTERVAL_S:g} s (one echo interval)"))
        return problems

    def argv(self, spec: PointSpec, params: PingParams, workdir: pathlib.Path) -> list[str]:
        """`ping -n -D -i 0.2 -W 1 -c N HOST`, N echo requests covering spec.duration_s."""
        count = max(1, math.ceil(spec.duration_s / INTERVAL_S))
        return ["ping", "-n", "-D", "-i", str(INTERVAL_S), "-W", str(REPLY_WAIT_S), "-c", str(count), params.host]

    parse_interval = staticmethod(parse_line)

    parse_final = staticmethod(parse)


ADAPTER = Ping()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
