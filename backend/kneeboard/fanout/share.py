"""The remote agent's side of a fanned point: run one share at its start time. Imports no database and no
broker: the share came from the API, its sign of life, live samples and outcome go back to the API, and the
API's answer to each sign of life says when to stop (a stop, a cancel, the conductor's lease lapsed)."""

from __future__ import annotations

import logging
import resource
import shutil
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx

from kneeboard.errors import PolicyRefused
from kneeboard.fanout.link import ApiLink, LinkRefused
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.policy.check import check_address
from kneeboard.policy.schemas import Policy
from kneeboard.tools import runner
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.registry import adapter

log = logging.getLogger(__name__)
LATE_S = 1.0  # a share taken this long after its start time is refused: its agent would start out of step
WATCH_S = 0.5  # a running share asks the API this often whether to stop (and sends its live samples)
LOST_S = 2.5  # a share that cannot reach the API this long stops its load: nobody could stop it otherwise


@dataclass
class AgentContext:
    """What the running agent knows: its name, its link to the API and its clock offset to the server."""

    name: str
    link: ApiLink
    cpus: int
    offset_s: float = 0.0  # server clock − agent clock
    workdir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "kneeboard-agent")

    def server_now(self) -> float:
        """The server's clock, as this agent reckons it."""
        return time.time() + self.offset_s


class Watch:
    """Asks the API every WATCH_S whether the share must stop, and sends the live samples gathered meanwhile.
    `reason` is set (and stays) once the answer is to stop, or once the API has been out of reach for LOST_S."""

    def __init__(self, link: ApiLink, run: str) -> None:
        self.link, self.run = link, run
        self.reason: str | None = None
        self.pending: list[dict] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watch:
        self.thread.start()
        return self

    def stopped(self) -> bool:
        """Whether the load must stop now."""
        return self.reason is not None

    def _watch(self) -> None:
        reached = time.monotonic()
        while not self.done.wait(WATCH_S):
            try:
                self.reason = self.reason or self.link.alive(self.run)
                samples, self.pending = self.pending, []
                if samples:
                    self.link.samples(self.run, samples)
                reached = time.monotonic()
            except LinkRefused as exc:
                self.reason = self.reason or f"the API refused this share: {exc}"
            except httpx.HTTPError as exc:
                if time.monotonic() - reached > LOST_S:
                    self.reason = self.reason or f"the API was out of reach for {LOST_S:g} s ({type(exc).__name__})"

    def __exit__(self, *_exc) -> None:
        self.done.set()
        self.thread.join(timeout=5)


def run_share(job: dict, ctx: AgentContext) -> None:
    """Run this agent's share of a fanned point at its start time and send the outcome to the API."""
    with Watch(ctx.link, job["run"]) as watch:
        try:
            outcome = _run(job, ctx, watch)
        except Exception as exc:  # noqa: BLE001 - the conductor must hear of any failure, not wait for a timeout
            log.exception("share failed")
            outcome = ShareOutcome(agent=ctx.name, error=f"agent {ctx.name} failed: {type(exc).__name__}: {exc}")
    outcome.offered_rate, outcome.cpus = job["spec"]["rate"], ctx.cpus
    body = {k: v for k, v in asdict(outcome).items() if k != "agent"}
    body["stdout"], body["stderr"] = ShareOutcome.tail(outcome.stdout), ShareOutcome.tail(outcome.stderr)
    try:
        ctx.link.outcome(job["run"], body)
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("the outcome of run %s was not accepted: %s", job["run"], exc)


def _run(job: dict, ctx: AgentContext, watch: Watch) -> ShareOutcome:
    tool, spec = adapter(job["tool"]), PointSpec(**job["spec"])
    late = ctx.server_now() - job["start_at"]
    if late > LATE_S:
        return ShareOutcome(agent=ctx.name, error=f"agent {ctx.name} took its share {late:.1f} s after the start time (was it busy or down?)")
    refused = policy_refusal(ctx.link, spec.host)
    if refused:
        return ShareOutcome(agent=ctx.name, error=f"refused before start on agent {ctx.name}: {refused}")
    workdir = ctx.workdir / f"share-{job['run']}-{ctx.name}"  # agents may share one machine's /tmp (the lab's do)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        return _run_in(workdir, job, ctx, watch, tool, spec)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run_in(workdir: Path, job: dict, ctx: AgentContext, watch: Watch, tool, spec: PointSpec) -> ShareOutcome:
    try:
        argv = tool.build(spec, workdir)
    except ToolInputError as exc:
        return ShareOutcome(agent=ctx.name, error=f"cannot build the {tool.name} command: {exc}")
    if _wait_until(job["start_at"] - ctx.offset_s, watch.stopped):
        return ShareOutcome(agent=ctx.name, error=f"stopped before the start time: {watch.reason}", cancelled=True)
    before = _children_cpu_s()
    outcome = runner.run(argv, timeout_s=job["timeout_s"], on_line=_live(ctx, watch, tool), should_cancel=watch.stopped, cwd=workdir,
                         env=tool.env(), line_buffered=tool.line_buffered, pipe_through=tool.pipe_through(spec),
                         output_limit=job["output_limit"], stop_signal=tool.stop_signal)  # fmt: skip
    result = tool.read(outcome)
    if isinstance(result.extra.get("outcomes"), dict):  # kbhttp's buckets, on the server's clock like the samples
        result.extra["outcomes"]["start"] += ctx.offset_s
    if outcome.cancelled:
        result.error = f"stopped: {watch.reason}"
    return ShareOutcome(
        agent=ctx.name, metrics=result.metrics, extra=result.extra, error=result.error, parser_version=result.parser_version,
        samples=[{"t": s.t, "series": s.series, "values": s.values} for s in result.samples],
        started_at=outcome.started_at.timestamp() + ctx.offset_s, cpu_s=round(_children_cpu_s() - before, 3),
        argv=outcome.argv, exit_code=outcome.exit_code, stdout=outcome.stdout, stderr=outcome.stderr, cancelled=outcome.cancelled,
    )  # fmt: skip


def policy_refusal(link: ApiLink, host: str) -> str | None:
    """The target policy fetched from the API and checked here, the host resolved on this agent; None if allowed."""
    document = link.policy()
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


def _live(ctx: AgentContext, watch: Watch, tool):
    """Each interval the tool prints goes to the API with the next sign of life, on the server's clock."""
    read = tool.interval_reader(time.time())

    def on_line(line: str) -> None:
        sample = read(line)
        if sample is not None and len(watch.pending) < 200:
            watch.pending.append({"t": sample.t + ctx.offset_s, "values": sample.values})

    return on_line
