"""Campaign operations for the API. Services never commit: the caller owns the transaction."""

from __future__ import annotations

import json

from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign, Point, SampleRow
from kneeboard.campaigns.progress import progress, store, stored_summary
from kneeboard.campaigns.analysis import ANALYSIS_VERSION, Thresholds, analyse_campaign
from kneeboard.campaigns.status import CAMPAIGN_ACTIVE, CAMPAIGN_TERMINAL, move_campaign, move_point
from kneeboard.campaigns.downsample import MAX_SERIES_POINTS, downsample
from kneeboard.config import get_settings
from kneeboard.agents.models import Agent
from kneeboard.db import utcnow
from kneeboard.environment import host_sharing
from kneeboard.grafana import dashboard_link
from kneeboard.errors import Conflict, NotFound, invalid
from kneeboard.campaigns.query import Filters, find
from kneeboard.plans.expand import expand
from kneeboard.plans.schemas import AnyPlan, PlanBody, PointPreview
from kneeboard.plans.models import Plan
from kneeboard.plans.service import baseline_checked_by, check_plan, get_plan
from kneeboard.targets.models import Target
from kneeboard.tools.registry import adapter
from kneeboard.states import CampaignStatus, PointStatus
from pydantic import TypeAdapter

_PLAN = TypeAdapter(PlanBody)


def target_snapshot(target: Target) -> dict:
    """The target as it was at launch, with its notes when it has any (snapshots from before notes were kept have none,
    and an empty note is left out too, so comparing an old campaign with a new one shows no difference that is not one)."""
    snapshot = {k: getattr(target, k) for k in ("id", "name", "kind", "host", "port", "tags", "metrics_url")}
    snapshot |= {"exporters": target.exporters} if target.exporters else {}  # left out when none, as notes are
    snapshot |= {"prometheus": target.prometheus} if target.prometheus else {}  # which server and queries, never a credential
    snapshot |= {"process": target.process} if target.process else {}  # the server's command name (the process monitor)
    return {**snapshot, "notes": target.notes} if target.notes else snapshot


def launch(plan_id: int, *, name: str | None, tags: list[str], session: Session, agent: str | None = None) -> Campaign:
    """A queued campaign with a frozen copy of the plan and its pending points, for `agent` (default AGENT_NAME)."""
    if agent is not None and session.get(Agent, agent) is None:
        raise invalid(("agent",), f"no agent named {agent!r} has registered")
    if agent is not None and (session.get(Agent, agent).facts or {}).get("remote"):
        raise invalid(("agent",), f"{agent!r} is a remote agent: it runs shares of fanned points (plan `agents`), not whole campaigns")
    stored = get_plan(plan_id, session=session)
    plan = _PLAN.validate_python(stored.body)
    check_plan(plan, session=session)
    target = session.get(Target, plan.target_id)
    campaign = Campaign(
        name=name or plan.name,
        tool=plan.tool,
        plan_id=stored.id,
        target_id=target.id,
        plan=_freeze(stored.body, session=session),
        target=target_snapshot(target),
        status=CampaignStatus.QUEUED,
        tags=sorted(set(plan.tags) | set(tags) | set(target.tags)),
        agent=agent or get_settings().agent_name,
        dispatched_at=utcnow(),
    )
    campaign.points = points_of(plan)
    store(campaign)
    session.add(campaign)
    session.flush()
    return campaign


def points_of(plan: AnyPlan) -> list[Point]:
    """The pending points a plan expands to (a derived rate at the most it can be, resolved by the worker)."""
    return [point_of(p) for p in expand(plan)]


def point_of(preview: PointPreview, **changes) -> Point:
    """A stored point from a previewed one (its `rate_from` text is the preview's; the worker stores its own)."""
    return Point(**{**preview.model_dump(exclude={"rate_from"}), **changes})


def _freeze(body: dict, *, session: Session) -> dict:
    """The plan as launched; a tool that names a stored profile keeps a copy of it."""
    param = adapter(body["tool"]).stored_profile_param
    if param is None:
        return body
    from kneeboard.profiles.service import document_for

    return {**body, "profile_document": document_for(body["params"][param], session=session, loc=(body["tool"], "params", param))}


def get_campaign(campaign_id: int, *, session: Session, lock: bool = False) -> Campaign:
    """One campaign, or NotFound; `lock`: its row locked for this transaction and read afresh (a change of status
    that must not race the worker's)."""
    campaign = session.get(Campaign, campaign_id, with_for_update=lock, populate_existing=lock)
    if campaign is None:
        raise NotFound("campaign", campaign_id)
    return campaign


def refresh_analysis(campaign: Campaign, thresholds: Thresholds | None = None) -> Campaign:
    """(Re)compute a finished campaign's analysis: on demand for older ones, or with new thresholds."""
    if thresholds is not None and campaign.status not in CAMPAIGN_TERMINAL:
        raise Conflict(f"campaign {campaign.id} is {campaign.status}; it is analysed when it ends")
    if campaign.status in CAMPAIGN_TERMINAL and (thresholds is not None or campaign.analysis is None):
        campaign.analysis = _with_record(analyse_campaign(campaign, thresholds), campaign.analysis)
    elif campaign.status in CAMPAIGN_TERMINAL and _analysed_by_older_rules(campaign.analysis):
        stored = (campaign.analysis or {}).get("thresholds")
        campaign.analysis = _with_record(analyse_campaign(campaign, Thresholds(**stored) if stored else None), campaign.analysis)
    return campaign


def _with_record(found: dict | None, before: dict | None) -> dict | None:
    """A new analysis (None when no point completed) keeping what the worker recorded on the old one when the run
    stopped (repeat until decided's trace, runs/passes.py)."""
    recorded = {k: before[k] for k in ("until_decided",) if before and k in before}
    return {**found, **recorded} if found is not None else recorded or None


def _analysed_by_older_rules(analysis: dict | None) -> bool:
    """A stored analysis of an older version (whose figures are read by other rules): read again."""
    return analysis is not None and analysis.get("version") != ANALYSIS_VERSION


def queue_position(campaign: Campaign, *, session: Session) -> int | None:
    """How many active campaigns are ahead of this one on its agent."""
    if campaign.status not in CAMPAIGN_ACTIVE:
        return None
    ahead = select(func.count()).where(
        Campaign.agent == campaign.agent, Campaign.status.in_(CAMPAIGN_ACTIVE), Campaign.id < campaign.id
    )
    return session.scalar(ahead)


def describe(campaign: Campaign, *, session: Session) -> dict:
    """A campaign as the API shows it: its columns plus progress and summary."""
    columns = {c.key: getattr(campaign, c.key) for c in Campaign.__table__.columns}
    return {
        **columns,
        "progress": progress(campaign, queue_position(campaign, session=session)),
        "summary": stored_summary(campaign),
        "host_sharing": host_sharing(campaign.environment or {}),
        "grafana_url": dashboard_link(get_settings().grafana_url, [(campaign.id, campaign.started_at, campaign.ended_at)]),
    }


def check_baseline(plan: Plan, campaign_id: int, session: Session) -> None:
    """A plan's baseline is a completed campaign of its tool (Invalid on `campaign_id` otherwise)."""
    campaign = session.get(Campaign, campaign_id)
    if campaign is None:
        raise invalid(("campaign_id",), f"campaign {campaign_id} does not exist")
    if campaign.tool != plan.tool or campaign.status != CampaignStatus.COMPLETED:
        raise invalid(("campaign_id",), f"campaign {campaign_id} is a {campaign.status} {campaign.tool} campaign; a baseline is a completed {plan.tool} one")


def register_baseline_check() -> None:
    """Let plans/ check a campaign pinned as a plan's baseline (kneeboard/extensions.py, at start)."""
    baseline_checked_by(check_baseline)


def pinned_baseline(campaign: Campaign, *, session: Session) -> int | None:
    """The campaign its plan pinned as the baseline to compare against (never itself)."""
    if campaign.plan_id is None:
        return None
    pinned = session.scalar(select(Plan.baseline_campaign_id).where(Plan.id == campaign.plan_id))
    return pinned if pinned != campaign.id else None


def list_campaigns(
    *, session: Session, status: str | None, target_id: int | None, tool: str | None,
    tag: str | None, q: str | None, limit: int, offset: int, archived: bool = False,
) -> tuple[list[Campaign], int]:  # fmt: skip
    """Campaigns newest first (list columns only), filtered in SQL (archived ones only when asked for); and how many match."""
    filters = Filters(status=status, target_id=target_id, tool=tool, tag=tag, q=q, archived=archived)
    rows, total, _next = find(filters, session=session, limit=limit, offset=offset)
    return rows, total


def cancel(campaign_id: int, *, session: Session) -> Campaign:
    """Ask a campaign to stop: a queued one ends at once, a running one goes to `cancelling`."""
    campaign = get_campaign(campaign_id, session=session, lock=True)
    if campaign.status == CampaignStatus.QUEUED:
        move_campaign(campaign, CampaignStatus.CANCELLED)
        for point in campaign.points:
            move_point(point, PointStatus.CANCELLED)
        store(campaign)
    elif campaign.status in {CampaignStatus.STARTING, CampaignStatus.RUNNING}:
        move_campaign(campaign, CampaignStatus.CANCELLING)
    elif campaign.status != CampaignStatus.CANCELLING:
        raise Conflict(f"campaign {campaign_id} is {campaign.status}; there is nothing to cancel")
    session.flush()
    return campaign


def delete_campaign(campaign_id: int, *, session: Session) -> Campaign:
    """Delete a campaign that is not running, with its points and samples (one transaction)."""
    campaign = get_campaign(campaign_id, session=session)
    if campaign.status in CAMPAIGN_ACTIVE:
        raise Conflict(f"campaign {campaign_id} is {campaign.status}; cancel it before deleting it")
    session.delete(campaign)
    session.flush()
    return campaign


def change(campaign_id: int, *, archived: bool | None, notes: str | None, session: Session) -> Campaign:
    """Archive (hide from the default list) or bring back a campaign; keep notes with it."""
    campaign = get_campaign(campaign_id, session=session)
    if archived is not None:
        campaign.archived = archived
    if notes is not None:
        campaign.notes = notes
    session.flush()
    return campaign


def list_points(campaign_id: int, *, session: Session) -> list[Point]:
    """A campaign's points in run order."""
    return get_campaign(campaign_id, session=session).points


def get_point(point_id: int, *, session: Session) -> Point:
    """One point, or NotFound."""
    point = session.get(Point, point_id)
    if point is None:
        raise NotFound("point", point_id)
    return point


def point_samples(point_id: int, *, series: str | None, max_points: int, session: Session) -> dict:
    """A point's samples, each series downsampled to at most `max_points`, which is clamped to MAX_SERIES_POINTS."""
    if session.scalar(select(Point.id).where(Point.id == point_id)) is None:
        raise NotFound("point", point_id)
    cap = min(max_points, MAX_SERIES_POINTS)
    # values as text, parsed in one json.loads: thousands of rows cost one parse, not thousands of objects and calls
    query = select(SampleRow.series, SampleRow.t, cast(SampleRow.values, Text)).where(SampleRow.point_id == point_id)
    if series:
        query = query.where(SampleRow.series == series)
    rows = session.execute(query.order_by(SampleRow.series, SampleRow.t)).all()
    parsed = json.loads("[" + ",".join(text for _, _, text in rows) + "]")
    by_series: dict[str, list[tuple]] = {}
    for (name, t, _), values in zip(rows, parsed):
        by_series.setdefault(name, []).append((t, values))
    samples, reduced = [], False
    for name, group in by_series.items():
        points = downsample(group, cap)
        reduced |= len(points) < len(group)
        samples += [{"t": t, "series": name, "values": values} for t, values in points]
    return {"point_id": point_id, "downsampled": reduced, "max_points": cap, "clamped": cap < max_points, "samples": samples}
