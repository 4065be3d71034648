"""The agent's side of a fanned point: `kneeboard.run_share`. Imports no database: it talks to
the API (target policy) and to Redis (results, stop flag, sign of life, live samples)."""

from __future__ import annotations

import json
import logging
import resource
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import redis

from kneeboard.campaigns.live import channel
from kneeboard.errors import PolicyRefused
from kneeboard.fanout.keys import ALIVE_MS, KEEP_S, RunKeys
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.policy.check import check_address
from kneeboard.policy.schemas import Policy
from kneeboard.tools import runner
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.registry import adapter

log = logging.getLogger(__name__)
LATE_S = 1.0  # a share taken this long after its start time is refused: its agent would start out of step


@dataclass
class AgentContext:
    """What the running agent knows: its name, the API, the broker and its clock offset to the server."""

    name: str
    api: httpx.Client
    broker: redis.Redis
    cpus: int
    offset_s: float = 0.0  # server clock − agent clock
    workdir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "kneeboard-agent")

    def server_now(self) -> float:
        """The server's clock, as this agent reckons it."""
        return time.time() + self.offset_s


CONTEXT: AgentContext | None = None  # set by `kneeboard agent` before its worker starts


class _SignOfLife:
    """Renews the share's alive key every second until stopped, so the conductor sees a dead agent within ALIVE_MS."""

    def __init__(self, broker: redis.Redis, key: str) -> None:
        self.broker, self.key, self.done = broker, key, threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self) -> _SignOfLife:
        self.broker.set(self.key, "1", px=ALIVE_MS)
        self.thread.start()
        return self

    def _beat(self) -> None:
        while not self.done.wait(1.0):
            try:
                self.broker.set(self.key, "1", px=ALIVE_MS)
            except redis.RedisError as exc:
                log.warning("sign of life not sent: %s", exc)

    def __exit__(self, *_exc) -> None:
        self.done.set()
        self.thread.join(timeout=2)


def run_share(job: dict) -> None:
    """Run this agent's share of a fanned point at its start time and push the outcome to the conductor."""
    ctx = CONTEXT
    keys = RunKeys(job["run"])
    with _SignOfLife(ctx.broker, keys.alive(ctx.name)):
        try:
            outcome = _run(job, ctx, keys)
        except Exception as exc:  # noqa: BLE001 - the conductor must hear of any failure, not wait for a timeout
            log.exception("share failed")
            outcome = ShareOutcome(agent=ctx.name, error=f"agent {ctx.name} failed: {type(exc).__name__}: {exc}")
        outcome.offered_rate, outcome.cpus = job["spec"]["rate"], ctx.cpus
        ctx.broker.rpush(keys.results, outcome.to_json())
        ctx.broker.expire(keys.results, KEEP_S)


def _run(job: dict, ctx: AgentContext, keys: RunKeys) -> ShareOutcome:
    tool, spec = adapter(job["tool"]), PointSpec(**job["spec"])
    late = ctx.server_now() - job["start_at"]
    if late > LATE_S:
        return ShareOutcome(agent=ctx.name, error=f"agent {ctx.name} took its share {late:.1f} s after the start time (was it busy or down?)")
    refused = policy_refusal(ctx.api, spec.host)
    if refused:
        return ShareOutcome(agent=ctx.name, error=f"refused before start on agent {ctx.name}: {refused}")
    workdir = ctx.workdir / f"share-{job['run']}-{ctx.name}"  # agents may share one machine's /tmp (the lab's do)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        return _run_in(workdir, job, ctx, keys, tool, spec)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run_in(workdir: Path, job: dict, ctx: AgentContext, keys: RunKeys, tool, spec: PointSpec) -> ShareOutcome:
    try:
        argv = tool.build(spec, workdir)
    except ToolInputError as exc:
        return ShareOutcome(agent=ctx.name, error=f"cannot build the {tool.name} command: {exc}")
    stopped = lambda: ctx.broker.exists(keys.stop) > 0 or not ctx.broker.exists(keys.lease)  # noqa: E731 - or the conductor died
    if _wait_until(job["start_at"] - ctx.offset_s, stopped):
        return ShareOutcome(agent=ctx.name, error="stopped before the start time: " + _why_stopped(ctx, keys), cancelled=True)
    before = _children_cpu_s()
    outcome = runner.run(argv, timeout_s=job["timeout_s"], on_line=_live(ctx, job, tool), should_cancel=stopped, cwd=workdir,
                         env=tool.env(), line_buffered=tool.line_buffered, pipe_through=tool.pipe_through(spec),
                         output_limit=job["output_limit"], stop_signal=tool.stop_signal)  # fmt: skip
    result = tool.read(outcome)
    if outcome.cancelled:
        result.error = "stopped: " + _why_stopped(ctx, keys)
    return ShareOutcome(
        agent=ctx.name, metrics=result.metrics, extra=result.extra, error=result.error, parser_version=result.parser_version,
        samples=[{"t": s.t, "series": s.series, "values": s.values} for s in result.samples],
        started_at=outcome.started_at.timestamp() + ctx.offset_s, cpu_s=round(_children_cpu_s() - before, 3),
        argv=outcome.argv, exit_code=outcome.exit_code, stdout=outcome.stdout, stderr=outcome.stderr, cancelled=outcome.cancelled,
    )  # fmt: skip


def _why_stopped(ctx: AgentContext, keys: RunKeys) -> str:
    """The conductor's reason, or that its lease lapsed (it died or lost Redis)."""
    reason = ctx.broker.get(keys.stop)
    return reason.decode() if reason else "the conductor's lease lapsed (it stopped renewing it: killed, or cut off)"


def policy_refusal(api: httpx.Client, host: str) -> str | None:
    """The target policy fetched from the API and checked here, the host resolved on this agent; None if allowed."""
    document = api.get("/api/v1/policy/targets").raise_for_status().json()
    policy = Policy(**{k: v for k, v in document.items() if k in Policy.model_fields})
    try:
        check_address(host, policy, loc=("host",))
    except PolicyRefused as exc:
        return str(exc)
    return None


def _wait_until(local_t: float, stopped) -> bool:
    """Sleep until the local clock reads `local_t` (short naps, exact at the end); True when stopped meanwhile."""
    while (left := local_t - time.time()) > 0:
        if left > 0.1 and stopped():
            return True
        time.sleep(min(left, 0.05) if left > 0.06 else left)
    return False


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _live(ctx: AgentContext, job: dict, tool):
    """Each interval the tool prints goes to the campaign's live channel as this agent's series."""
    read = tool.interval_reader(time.time())

    def on_line(line: str) -> None:
        sample = read(line)
        if sample is not None:
            data = {"point_id": job["point_id"], "t": sample.t + ctx.offset_s, "series": f"agent.{ctx.name}", "values": sample.values}
            ctx.broker.publish(channel(job["campaign_id"]), json.dumps({"event": "sample", "data": data}))

    return on_line
