"""Storing a point's result, fenced by the run's lease and attempt, and how a stored point is judged."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from kneeboard.analysis import generator
from kneeboard.analysis.steady import steady_window
from kneeboard.campaigns.models import Campaign, Point, SampleRow
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_point
from kneeboard.plans.schemas import params_of
from kneeboard.db import session_scope
from kneeboard.runs import faults
from kneeboard.runs.leases import HELD, holds
from kneeboard.states import PointStatus
from kneeboard.tools.base import PointResult, PointSpec, Sample, derive
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.runner import RunOutcome

log = logging.getLogger(__name__)
RECOVERABLE = (PointStatus.CRASHED, PointStatus.FAILED)  # a run that ended before its result was stored


@dataclass(frozen=True)
class Run:
    """One execution of a campaign: who runs it (agent name, lease holder) and which attempt it is."""

    campaign_id: int
    agent: str
    owner: str
    attempt: int

    def current(self, campaign: Campaign, point: Point) -> bool:
        """Whether this run may still write the point: it holds the lease and both are of its attempt."""
        return holds(campaign, self.owner) and campaign.attempt == self.attempt and point.attempt == self.attempt


def store_point(point_id: int, spec: PointSpec, outcome: RunOutcome | None, result: PointResult, tool: ToolAdapter, run: Run) -> str | None:
    """Store a point's result, fenced: None (nothing written) when the point is not running under this
    holder's lease in this attempt (the reaper crashed it, or the campaign was resumed elsewhere)."""
    with session_scope() as session:
        campaign, point = _locked(point_id, session)
        if point.status != PointStatus.RUNNING or not run.current(campaign, point):
            log.warning("point %s: store refused (status %s, attempt %s/%s, holder %s); its result stays in the spool",
                        point_id, point.status, point.attempt, campaign.attempt, campaign.lease_owner)
            return None
        faults.inject("store")
        write(point, spec.rate, outcome, result, tool, session=session)
        return point.status


def store_recovered(point_id: int, attempt: int, rate: float | None, outcome: RunOutcome | None, result: PointResult,
                    tool: ToolAdapter) -> str:
    """Store a spooled result whose run ended before it could (a long database outage), when the point is
    still of that attempt, no later attempt exists and its run is over. Returns "stored", "wait" (its
    campaign is still held by a run: try later) or "stale" (it must never be stored)."""
    with session_scope() as session:
        if session.get(Point, point_id) is None:
            return "stale"
        campaign, point = _locked(point_id, session)
        if campaign.attempt != attempt or point.attempt != attempt:
            return "stale"
        if campaign.status in HELD:
            return "wait"
        if point.status not in RECOVERABLE:
            return "stale"
        result.extra.setdefault("warnings", []).insert(0, "stored from the agent's spool after its run had ended (database outage)")
        write(point, rate, outcome, result, tool, session=session)
        return "stored"


def _locked(point_id: int, session) -> tuple[Campaign, Point]:  # noqa: ANN001
    """The point's campaign with its row locked, and the point read again under that lock (a cancel or a resume
    in the API serialises with this write)."""
    campaign_id = session.get(Point, point_id).campaign_id
    campaign = session.get(Campaign, campaign_id, with_for_update=True, populate_existing=True)
    return campaign, session.get(Point, point_id, populate_existing=True)


def write(point: Point, rate: float | None, outcome: RunOutcome | None, result: PointResult, tool: ToolAdapter, *, session) -> None:
    """Write a result onto its point: metrics, evidence, samples, steadiness and its final status."""
    point.metrics = derive(result.metrics, rate) if result.metrics else {}
    point.extra = {**({"rate_from": point.extra["rate_from"]} if "rate_from" in (point.extra or {}) else {}), **result.extra}
    point.warnings = list(result.extra.get("warnings", []))
    point.error = result.error
    point.parser_version = result.parser_version
    if outcome is not None:
        point.argv, point.exit_code = outcome.argv, outcome.exit_code
        point.stdout, point.stderr = outcome.stdout, outcome.stderr
        point.tool_version = tool.parse_version(outcome.stdout + outcome.stderr)
    session.add_all(SampleRow(point_id=point.id, series=s.series, t=s.t, values=s.values) for s in result.samples)
    point.extra = {**point.extra, "steady": _steadiness(point, tool, result.samples)}
    _judge_sending(point, tool, result)
    cancelled = outcome is not None and outcome.cancelled
    final = PointStatus.CANCELLED if cancelled else PointStatus.FAILED if result.error else PointStatus.COMPLETED
    if point.status != final:
        move_point(point, final)
    _stop_ramp_if_erring(point)
    store(point.campaign)


def _steadiness(point: Point, tool: ToolAdapter, samples: list[Sample]) -> dict | None:
    """The point's headline series judged on its steady window (warm-up from the phase, else the tool)."""
    metric = tool.headline.name if tool.headline else "achieved_rate"
    series = [(s.t, s.values.get(metric, s.values.get("achieved_rate"))) for s in samples if s.series == "point"]
    warmup = point.campaign.plan["phases"][point.phase_index].get("warmup_s")
    return steady_window(series, tool.warmup_s if warmup is None else warmup)


def _judge_sending(point: Point, tool: ToolAdapter, result: PointResult) -> None:
    """Whether the point's offered load was sent (the generator judged first), kept in extra["generator"]; a
    generator-limited point warns with the cause and the change that would lift it."""
    sending = None if result.error else tool.sending(point, tool.read_params(params_of(point.campaign.plan, point.variant)), result)
    if sending is None:
        return
    busy = ((point.extra.get("monitors") or {}).get("mpstat") or {}).get("all_avg_busy_pct")
    verdict = generator.judge(sending, busy)
    point.extra = {**point.extra, "generator": verdict}
    if verdict["limited"]:
        point.warnings = [*point.warnings, generator.warning(verdict)]


def _stop_ramp_if_erring(point: Point) -> None:
    """A ramp phase ends at the first point whose error rate passes the phase's threshold."""
    phase = point.campaign.plan["phases"][point.phase_index]
    if phase.get("kind") != "ramp" or point.status not in {PointStatus.COMPLETED, PointStatus.FAILED}:
        return
    errors, done = point.metrics.get("errors") or 0, point.metrics.get("completed") or 0
    rate = 100.0 * errors / max(1.0, errors + done) if point.status == PointStatus.COMPLETED else 100.0
    if rate <= phase.get("stop_error_pct", 10.0):
        return
    point.warnings = [*point.warnings, f"ramp stopped here: error rate {rate:.1f} % passed {phase.get('stop_error_pct', 10.0):g} %"]
    for later in point.campaign.points:
        same_pass = later.phase_index == point.phase_index and later.variant == point.variant and later.repeat == point.repeat
        if later.status == PointStatus.PENDING and same_pass:
            move_point(later, PointStatus.CANCELLED)
            later.error = f"not run: the ramp stopped at {point.concurrency} connections ({rate:.1f} % errors)"
