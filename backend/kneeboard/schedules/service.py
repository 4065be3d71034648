"""Schedules: CRUD, the beat tick that launches due runs, and the gate of each finished run. Never commits."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.audit.service import record
from kneeboard.auth.errors import Forbidden
from kneeboard.auth.models import User
from kneeboard.auth.principal import ENV_ADMIN
from kneeboard.auth.roles import Role, allows
from kneeboard.campaigns import service as campaigns
from kneeboard.campaigns.launch import admit
from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.status import CAMPAIGN_ACTIVE, CAMPAIGN_TERMINAL
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.errors import DomainError, NotFound, invalid
from kneeboard.gate import baseline_outcome, check_thresholds, parse_threshold
from kneeboard.plans.service import get_plan
from kneeboard.plans import policy_check as policy
from kneeboard.schedules.cron import fire_times, next_fire
from kneeboard.schedules.models import Schedule
from kneeboard.schedules.schemas import ScheduleCreate, ScheduleFields
from kneeboard.tools.registry import adapter

MAX_COUNTED = 100_000  # fire times counted one by one when reporting what was missed
PINNED_TAG = "pinned"


def schedule_tag(schedule_id: int) -> str:
    """The tag every run of a schedule carries."""
    return f"schedule:{schedule_id}"


def _check_thresholds(thresholds: list[str], plan_id: int, *, session: Session) -> None:
    metrics = {m.name for m in adapter(get_plan(plan_id, session=session).tool).metrics}
    for i, text in enumerate(thresholds):
        try:
            parse_threshold(text, metrics)
        except ValueError as exc:
            raise invalid(("thresholds", i), str(exc)) from None


def create(body: ScheduleCreate, *, role: str, creator: str, session: Session) -> Schedule:
    """Store a schedule for a plan the caller may launch; its next run is computed now."""
    plan = get_plan(body.plan_id, session=session)
    policy.check_launch(plan.body, role=role, session=session)
    _check_thresholds(body.thresholds, plan.id, session=session)
    schedule = Schedule(**body.model_dump(), created_by=creator, missed=0, skipped=0)
    schedule.next_run_at = next_fire(schedule.cron, schedule.timezone, utcnow()) if schedule.enabled else None
    session.add(schedule)
    session.flush()
    return schedule


def get(schedule_id: int, *, session: Session) -> Schedule:
    """One schedule, or NotFound."""
    schedule = session.get(Schedule, schedule_id)
    if schedule is None:
        raise NotFound("schedule", schedule_id)
    return schedule


def list_all(*, session: Session) -> list[Schedule]:
    """Every schedule, oldest first."""
    return list(session.scalars(select(Schedule).order_by(Schedule.id)))


def update(schedule_id: int, body: ScheduleFields, *, session: Session) -> Schedule:
    """Change a schedule; enabling it or changing its cron starts counting from now (nothing is run for the past)."""
    schedule = get(schedule_id, session=session)
    changes = body.model_dump(exclude_unset=True)
    for key in ("cron", "timezone", "enabled"):
        if key in changes and changes[key] is None:
            raise invalid((key,), "may not be null")
    if "thresholds" in changes:
        changes["thresholds"] = changes["thresholds"] or []
        _check_thresholds(changes["thresholds"], schedule.plan_id, session=session)
    for key, value in changes.items():
        setattr(schedule, key, value)
    if {"cron", "timezone", "enabled"} & changes.keys():
        schedule.next_run_at = next_fire(schedule.cron, schedule.timezone, utcnow()) if schedule.enabled else None
    session.flush()
    return schedule


def delete(schedule_id: int, *, session: Session) -> Schedule:
    """Delete a schedule (its campaigns stay)."""
    schedule = get(schedule_id, session=session)
    session.delete(schedule)
    session.flush()
    return schedule


def describe(schedule: Schedule, *, session: Session) -> dict:
    """A schedule as the API shows it, with its last run's status."""
    last = session.get(Campaign, schedule.last_campaign_id) if schedule.last_campaign_id else None
    columns = {c.key: getattr(schedule, c.key) for c in Schedule.__table__.columns}
    return {**columns, "last_status": last.status if last else None}


def tick(*, session: Session, now: datetime | None = None) -> list[Campaign]:
    """Launch every enabled schedule that is due; count what was missed; settle finished runs' gates.

    A fire time older than the grace (4 ticks, at least a minute) was missed while Kneeboard was
    down: it is counted, never run late. A due run whose previous run is still active is skipped.
    """
    now = now or utcnow()
    grace = timedelta(seconds=max(60.0, 4 * get_settings().schedule_tick_s))
    launched = []
    for schedule in session.scalars(select(Schedule).order_by(Schedule.id)):
        settle_gate(schedule, session=session)
        if schedule.enabled and _due(schedule, now, grace) and (campaign := _launch(schedule, now, session=session)):
            launched.append(campaign)
    return launched


def _due(schedule: Schedule, now: datetime, grace: timedelta) -> bool:
    """Move next_run_at past `now`; True when its latest fire time is recent enough to run."""
    if schedule.next_run_at is None:
        schedule.next_run_at = next_fire(schedule.cron, schedule.timezone, now)
        return False
    first = as_utc(schedule.next_run_at)
    if first > now:
        return False
    latest, passed = first, 1
    for moment in fire_times(schedule.cron, schedule.timezone, first):
        if moment > now:
            schedule.next_run_at = moment
            break
        latest, passed = moment, passed + 1
        if passed >= MAX_COUNTED:
            schedule.next_run_at = next_fire(schedule.cron, schedule.timezone, now)
            break
    missed = passed - 1
    runnable = now - latest <= grace
    if not runnable:
        missed += 1
    if missed:
        schedule.missed = (schedule.missed or 0) + missed
        schedule.last_missed_at = latest if not runnable else first
    return runnable


def _launch(schedule: Schedule, now: datetime, *, session: Session) -> Campaign | None:
    """A campaign for the schedule's plan, run as its owner with the owner's current role and caps, unless its
    previous run is still queued or running. A refusal (owner gone or no longer allowed to launch, caps, policy)
    is kept on the schedule and in the audit log."""
    previous = session.get(Campaign, schedule.last_campaign_id) if schedule.last_campaign_id else None
    if previous is not None and previous.status in CAMPAIGN_ACTIVE:
        schedule.skipped = (schedule.skipped or 0) + 1
        return None
    try:
        with session.begin_nested():
            role = owner_role(schedule, session=session)
            campaign = admit(lambda: campaigns.launch(schedule.plan_id, name=None, tags=[schedule_tag(schedule.id)], session=session),
                             role=role, actor=f"schedule:{schedule.id}", source=None, action="launch", session=session,
                             details=lambda _made: {"schedule": schedule.id, "owner": schedule.created_by, "role": role})
    except DomainError as exc:
        schedule.last_run_at, schedule.last_gate = now, f"not launched: {exc}"
        record(session, f"schedule:{schedule.id}", "skip", "schedule", schedule.id, schedule.cron, None,
               {"owner": schedule.created_by, "reason": str(exc)})
        return None
    schedule.last_run_at, schedule.last_campaign_id, schedule.last_gate = now, campaign.id, None
    return campaign


def owner_role(schedule: Schedule, *, session: Session) -> str:
    """The role the schedule's owner has now; Forbidden when the owner is gone or may no longer launch."""
    if schedule.created_by == ENV_ADMIN and get_settings().kb_admin_token:
        return Role.admin.value
    owner = session.scalar(select(User).where(User.username == schedule.created_by)) if schedule.created_by else None
    if owner is None:
        raise Forbidden(f"the schedule's owner {schedule.created_by or '(none)'} no longer exists")
    if not allows(owner.role, Role.operator, "/api/v1/campaigns"):
        raise Forbidden(f"the schedule's owner {owner.username} is now {owner.role} and may not launch campaigns")
    return owner.role


def _point_dicts(campaign: Campaign) -> list[dict]:
    keys = ("seq", "phase", "concurrency", "offered_rate", "variant", "repeat", "status", "metrics")
    return [{k: getattr(p, k) for k in keys} for p in campaign.points]


def resolve_baseline(baseline: str, campaign: Campaign, *, session: Session) -> int | None:
    """A campaign id, or `latest-pinned`: the newest completed campaign tagged `pinned` of the same tool and target."""
    if baseline != "latest-pinned":
        return int(baseline)
    rows, _ = campaigns.list_campaigns(session=session, status="completed", target_id=campaign.target_id, tool=campaign.tool,
                                       tag=PINNED_TAG, q=None, limit=5, offset=0)  # fmt: skip
    return next((c.id for c in rows if c.id != campaign.id), None)


def gate_of(campaign: Campaign, thresholds: list[str], baseline: str | None, *, session: Session) -> str:
    """One line: "passed", or which thresholds failed, a regression or an inconclusive comparison."""
    from kneeboard.compare.service import build

    if campaign.status != "completed":
        return f"run {campaign.status}"
    problems = [f"threshold {r.threshold} failed: {r.failures[0]}" for r in
                check_thresholds([parse_threshold(t) for t in thresholds], _point_dicts(campaign)) if not r.passed]  # fmt: skip
    if baseline:
        base = resolve_baseline(baseline, campaign, session=session)
        if base is None:
            problems.append("baseline: no pinned campaign to compare with")
        else:
            try:
                outcome = baseline_outcome(build([str(base), str(campaign.id)], session=session), str(campaign.id))
            except DomainError as exc:
                outcome = None
                problems.append(f"baseline {base}: {exc}")
            if outcome is not None and outcome.outcome != "pass":
                problems.append(f"{outcome.outcome} against {base}: {outcome.detail}")
    return "; ".join(problems) or "passed"


def settle_gate(schedule: Schedule, *, session: Session) -> None:
    """Once the last run has ended, record its gate (thresholds and baseline) on the schedule."""
    if schedule.last_gate is not None or schedule.last_campaign_id is None:
        return
    campaign = session.get(Campaign, schedule.last_campaign_id)
    if campaign is None or campaign.status not in CAMPAIGN_TERMINAL:
        return
    if schedule.thresholds or schedule.baseline or campaign.status != "completed":
        schedule.last_gate = gate_of(campaign, schedule.thresholds or [], schedule.baseline, session=session)
    else:
        schedule.last_gate = "passed"
