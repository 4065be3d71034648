"""Running a campaign on an agent: its points one after another, each through its tool adapter."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from pydantic import TypeAdapter
from sqlalchemy import select

from kneeboard import live
from kneeboard.campaigns.analysis import analyse_campaign
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.events import schedule as point_events
from kneeboard.runs import fired_events as events_service
from kneeboard.events.actions import impairing, on_observers, on_worker
from kneeboard.runs import fanout_driver as fanout
from kneeboard.observers import remote as host_events
from kneeboard.lab import impair, querylogs
from kneeboard.observers import process_cpu as server_cpu
from kneeboard.plans.schemas import PlanBody, params_of
from kneeboard.runs import cpu_capture as cpu_profile
from kneeboard.runs import derived, faults, harness_cpu, passes, spool, tls_check
from kneeboard.runs.agent_lock import agent_slot
from kneeboard.runs.failure import fail_run
from kneeboard.runs.pinning import pin
from kneeboard.runs.leases import HELD, claim, executing, holds, instance_id, release
from kneeboard.runs.monitors import MonitorSet, scraped_by
from kneeboard.retry import is_outage, retrying
from kneeboard.runs.settled import settled
from kneeboard.runs.store import Run, store_point
from kneeboard.runs import search_driver as search
from kneeboard.runs.variants import apply_variant, environment, lab_settings_before, restore
from kneeboard.states import CampaignStatus, PointStatus
from kneeboard.tools import runner
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.registry import adapter

_PLAN = TypeAdapter(PlanBody)
log = logging.getLogger(__name__)
CANCEL_POLL_S = 0.25


class _Watch:
    """Asks the database, at most every CANCEL_POLL_S, whether the campaign is being cancelled or
    whether this agent lost its lease (the reaper crashed it); a database blip counts as neither."""

    def __init__(self, campaign_id: int, owner: str) -> None:
        self.campaign_id, self.owner, self.checked = campaign_id, owner, 0.0
        self.cancelled = self.lost = False

    def __call__(self) -> bool:
        if not (self.cancelled or self.lost) and time.monotonic() - self.checked >= CANCEL_POLL_S:
            self.checked = time.monotonic()
            try:
                with session_scope() as session:
                    row = session.execute(select(Campaign.status, Campaign.lease_owner).where(Campaign.id == self.campaign_id)).one()
            except Exception as exc:  # noqa: BLE001 - the database may be away for a moment: keep measuring
                if not is_outage(exc):
                    raise
                return False
            self.cancelled = row.status in {CampaignStatus.CANCELLING, CampaignStatus.CANCELLED}
            self.lost = row.lease_owner != self.owner or row.status not in HELD
            if self.cancelled or self.lost:
                log.info("campaign %s: %s", self.campaign_id, "cancel seen" if self.cancelled else "lease lost")
        return self.cancelled or self.lost

    def sleep(self, seconds: float) -> bool:
        """Pause between points; True when a cancel came meanwhile."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self():
                return True
            time.sleep(min(0.1, max(0.0, end - time.monotonic())))
        return self()


def run_campaign(campaign_id: int, agent: str) -> str:
    """Claim a queued campaign's lease, run its pending points and settle its final status; returns it.

    A campaign another agent holds, or one no longer queued, is left alone (a message sent twice). The agent's
    exclusive reservation is taken first: one load at a time per agent name, however many processes carry it.
    Anything unexpected ends the campaign `failed` with the error on its report; it is never left running.
    """
    owner = instance_id(agent)
    with agent_slot(agent, campaign_id, lambda: _queued(campaign_id)) as mine, executing(campaign_id):
        if not mine:
            return "not run here"
        try:
            return _run(campaign_id, agent, owner)
        except Exception as exc:  # noqa: BLE001 - whatever it was, the campaign must end and say why
            log.exception("campaign %s: unexpected error", campaign_id)
            error = exc
            return retrying(lambda: fail_run(campaign_id, owner, error), "failing the campaign")


def _queued(campaign_id: int) -> bool:
    with session_scope() as session:
        return session.scalar(select(Campaign.status).where(Campaign.id == campaign_id)) == CampaignStatus.QUEUED


def _run(campaign_id: int, agent: str, owner: str) -> str:
    started = retrying(lambda: _start(campaign_id, agent, owner), "starting the campaign")
    if isinstance(started, str):
        return started
    pending, pause, before, attempt = started
    faults.inject("start")
    live.publish(campaign_id, "status", {"status": CampaignStatus.RUNNING})
    watch, current_variant, variant_error, index = _Watch(campaign_id, owner), object(), None, -1
    run = Run(campaign_id, agent, owner, attempt)
    try:
        while pending:  # repeat until decided adds a pass at a time (runs/passes.py); otherwise one round
            for index, (point_id, variant) in enumerate(pending, start=index + 1):
                if watch() or (index and watch.sleep(pause)):
                    break
                if variant != current_variant:
                    current_variant, variant_error = variant, apply_variant(campaign_id, variant)
                if search.is_search(point_id):
                    search.drive(point_id, run, watch, run_point, refused=variant_error)
                elif retrying(lambda: derived.resolve(campaign_id, point_id), "resolving a derived load") is None:
                    run_point(point_id, run, watch, refused=variant_error)
            else:
                pending = [] if watch() else retrying(lambda: passes.another(campaign_id), "adding a pass")
                continue
            break
    finally:  # after a cancel or a failure too: the lab is left as it was found
        retrying(lambda: restore(campaign_id, before), "restoring the lab")
    if watch.lost:
        return CampaignStatus.CRASHED
    return retrying(lambda: _settle(campaign_id, owner), "settling the campaign")


def _start(campaign_id: int, agent: str, owner: str) -> tuple[list[tuple[int, str | None]], float, dict, int] | str:
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        if campaign is None:
            return "missing"
        if not claim(campaign_id, owner, session=session):
            return campaign.status
        session.refresh(campaign)
        move_campaign(campaign, CampaignStatus.STARTING)
        campaign.agent = agent
        campaign.environment = environment(campaign)
        move_campaign(campaign, CampaignStatus.RUNNING)
        pending = [(p.id, p.variant) for p in campaign.points if p.status == PointStatus.PENDING]
        return pending, float(campaign.plan.get("pause_s", 0)), lab_settings_before(campaign.plan), campaign.attempt


def _settle(campaign_id: int, owner: str) -> str:
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        if not holds(campaign, owner):
            return campaign.status
        faults.inject("settle")
        cancelling = campaign.status == CampaignStatus.CANCELLING
        for point in campaign.points:
            if point.status == PointStatus.PENDING:
                move_point(point, PointStatus.CANCELLED)
        store(campaign)
        completed = sum(p.status == PointStatus.COMPLETED for p in campaign.points)
        campaign.partial = completed < len(campaign.points) or any((p.extra or {}).get("partial") for p in campaign.points)
        release(campaign)
        if cancelling:
            move_campaign(campaign, CampaignStatus.CANCELLED)
        elif completed == 0:
            campaign.error = "no point completed; see the points' errors"
            move_campaign(campaign, CampaignStatus.FAILED)
        else:
            move_campaign(campaign, CampaignStatus.COMPLETED)
        try:
            campaign.analysis = analyse_campaign(campaign)
            if (decided := passes.verdict_of(campaign, cancelled=cancelling)) is not None:
                campaign.analysis = {**(campaign.analysis or {}), "until_decided": decided}
        except Exception as exc:  # noqa: BLE001 - an analysis bug must not lose the campaign's status
            campaign.analysis = {"error": f"analysis failed: {type(exc).__name__}: {exc}"}
        status = campaign.status
    live.publish(campaign_id, "status", {"status": status})
    settled(campaign_id)
    return status


def run_point(point_id: int, run: Run, should_cancel, refused: str | None = None) -> None:
    """Run one point (with its monitors) through its tool and store metrics, samples and evidence.

    The result is spooled before it is stored; a store refused as stale (another holder or a later attempt)
    leaves it in the spool, where nothing later overwrites a newer attempt's rows."""
    loaded = retrying(lambda: _begin_point(point_id, run), "starting a point")
    if loaded is None:
        return
    campaign_id, tool, spec, monitors, scraped, events = loaded
    live.publish(campaign_id, "point", {"id": point_id, "status": PointStatus.RUNNING})
    faults.inject("point")
    workdir = Path(get_settings().workdir) / f"campaign-{campaign_id}" / f"point-{point_id}"
    workdir.mkdir(parents=True, exist_ok=True)
    pinned = retrying(lambda: pin(spec, monitors, scraped), "checking the target policy")
    refused, spec, monitors, scraped = refused or pinned.refused, pinned.spec, pinned.monitors, pinned.scraped
    tls = tls_check.Checked() if refused else tls_check.check(tool, spec)  # the tool itself does not verify
    refused = refused or tls.refused
    emptied = None if refused else querylogs.empty_before_point(spec.host, spec.port)  # a lab server's log: one point's
    with (impair.beside_point(spec.host, impairing(events), bool(refused)) as link,  # the link put back after the events
          cpu_profile.beside(point_id, tool, spec, workdir, refused) as profiled,
          host_events.beside(point_id, on_observers(events), spec.duration_s, bool(refused)) as observed,
          server_cpu.beside(point_id, spec.duration_s, refused) as observed_cpu,  # the load starts as its observer acknowledges
          point_events.during(on_worker(events), bool(refused), campaign_id=campaign_id, point_id=point_id) as fired):
        result, outcome, monitor_samples, monitor_warnings = _measure(campaign_id, point_id, tool, spec, monitors, workdir, should_cancel, refused, scraped)
    monitor_warnings += profiled.file(result)  # folded after the point, at idle priority
    monitor_warnings += observed_cpu.file(result)  # a remote server's process CPU, read by its observer
    monitor_warnings += events_service.file(fired, result.extra, campaign_id=campaign_id, point_id=point_id, agent=run.agent,
                                            observed=observed)
    result.samples += monitor_samples
    result.extra.setdefault("warnings", [])
    result.extra["warnings"] = list(result.extra["warnings"]) + monitor_warnings + tls.warnings
    if tls.record:
        result.extra["tls_check"] = tls.record
    if link:
        result.extra["impairment"] = link
    if emptied:
        result.extra["lab_query_log_emptied"] = emptied
    spool.keep(workdir, result, outcome, point_id=point_id, attempt=run.attempt, owner=run.owner, tool=tool.name, rate=spec.rate)
    status = retrying(lambda: store_point(point_id, spec, outcome, result, tool, run), f"storing point {point_id}")
    if status is not None:
        spool.stored(workdir)
        profiled.store(point_id)
        live.publish(campaign_id, "point", {"id": point_id, "status": status})


def _begin_point(point_id: int, run: Run):
    with session_scope() as session:
        campaign = session.get(Campaign, session.get(Point, point_id).campaign_id, with_for_update=True, populate_existing=True)
        point = session.get(Point, point_id, populate_existing=True)  # read again under the campaign's lock
        if point.status != PointStatus.PENDING or not run.current(campaign, point):
            return None
        plan = _PLAN.validate_python({k: v for k, v in campaign.plan.items() if k != "profile_document"})
        move_point(point, PointStatus.RUNNING)
        point.agent = run.agent
        spec = PointSpec(
            host=campaign.target["host"], port=campaign.target["port"], concurrency=point.concurrency,
            rate=point.offered_rate, duration_s=point.duration_s, params=params_of(campaign.plan, point.variant),
            documents=_documents(campaign.plan),
        )  # fmt: skip
        events = [e.model_dump() for e in plan.phases[point.phase_index].events]
        return campaign.id, adapter(campaign.tool), spec, [m.model_dump() for m in plan.monitors], scraped_by(campaign.target), events


def _measure(campaign_id: int, point_id: int, tool: ToolAdapter, spec: PointSpec, monitors: list[dict], workdir: Path,
             should_cancel, refused: str | None, scraped: dict | None = None) -> tuple[PointResult, runner.RunOutcome | None, list[Sample], list[str]]:
    """Build and run the tool beside its monitors; never raises for the tool's sake."""
    outcome, result, monitor_samples, monitor_warnings = None, PointResult(error=refused), [], []
    argv = None
    if not refused:
        try:
            argv = tool.build(spec, workdir)
        except ToolInputError as exc:
            result.error = f"cannot build the {tool.name} command: {exc}"
    fan = retrying(lambda: fanout.fan_of(point_id), "reading the point's agents") if argv is not None else None
    harness = harness_cpu.Meter() if argv is not None else None
    if fan is not None:  # several agents share the point: they run the tool, the monitors stay here
        with MonitorSet(monitors, spec.duration_s, workdir, scraped) as watchers:
            result, outcome = fanout.run_fanned(fan, campaign_id, point_id, tool, spec, should_cancel)
        monitor_samples, monitor_warnings = watchers.samples, watchers.warnings
        if watchers.summaries:
            result.extra["monitors"] = watchers.summaries
    elif argv is not None:
        with MonitorSet(monitors, spec.duration_s, workdir, scraped) as watchers:
            live_samples: list[Sample] = []
            outcome = runner.run(
                argv,
                timeout_s=tool.time_limit_s(spec, get_settings().grace_s),
                on_line=_live_samples(campaign_id, point_id, tool, live_samples),
                should_cancel=should_cancel,
                cwd=workdir,
                env=tool.env(),
                line_buffered=tool.line_buffered,
                pipe_through=tool.pipe_through(spec),
                output_limit=tool.output_limit or get_settings().raw_output_limit,
                stop_signal=tool.stop_signal,
            )
        monitor_samples, monitor_warnings = watchers.samples, watchers.warnings
        result = tool.read(outcome)
        if watchers.summaries:
            result.extra["monitors"] = watchers.summaries
        if live_samples:  # every interval as it came: the stored stdout may have lost the middle of a long run
            result.samples = live_samples
    if harness is not None:
        result.extra["harness_cpu"] = harness.used()
    return result, outcome, monitor_samples, monitor_warnings


def _documents(frozen: dict) -> dict:
    document = frozen.get("profile_document")
    return {"profile": document} if document is not None else {}


def _live_samples(campaign_id: int, point_id: int, tool: ToolAdapter, kept: list[Sample]):
    read = tool.interval_reader(time.time())

    def on_line(line: str) -> None:
        sample = read(line)
        if sample is not None:
            kept.append(sample)
            live.publish(campaign_id, "sample", {"point_id": point_id, "t": sample.t, "series": sample.series, "values": sample.values})

    return on_line
