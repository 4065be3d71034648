"""Which campaigns a trend holds, and their rows: read from trend_entries, filled in for campaigns that have none.

A campaign gets its row when it settles (trends.settle); older or imported ones get theirs the first time a
trend that holds them is read. Services never commit: the caller owns the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Row, exists, select
from sqlalchemy.orm import Session, selectinload

from kneeboard.campaigns.models import Campaign, CampaignTag
from kneeboard.errors import invalid_query
from kneeboard.states import CampaignStatus
from kneeboard.trends.headline import entry_of
from kneeboard.trends.models import TrendEntry

FILL_CHUNK = 100
MAX_SERIES = 5000


@dataclass(frozen=True)
class Scope:
    """What a trend follows: one plan, one target with one tool, or one tag."""

    plan_id: int | None = None
    target_id: int | None = None
    tool: str | None = None
    tag: str | None = None

    @classmethod
    def of(cls, *, plan_id: int | None, target_id: int | None, tool: str | None, tag: str | None) -> Scope:
        """The scope the query names; a 422 naming the field when it names none, several, or a target without a tool."""
        given = [name for name, value in (("plan_id", plan_id), ("target_id", target_id), ("tag", tag)) if value is not None]
        if len(given) != 1:
            raise invalid_query(given[-1] if given else "plan_id", "give exactly one of plan_id, target_id (with tool) or tag")
        if (target_id is None) != (tool is None):
            raise invalid_query("tool" if tool is None else "target_id", "a target's trend is of one tool: give target_id and tool together")
        return cls(plan_id, target_id, tool, tag)

    @property
    def key(self) -> str:
        """plan:5, target:3:dnsperf or tag:nightly."""
        if self.plan_id is not None:
            return f"plan:{self.plan_id}"
        return f"target:{self.target_id}:{self.tool}" if self.target_id is not None else f"tag:{self.tag}"


def _campaign_conditions(scope: Scope) -> list[ColumnElement[bool]]:
    if scope.plan_id is not None:
        return [Campaign.plan_id == scope.plan_id]
    if scope.target_id is not None:
        return [Campaign.target_id == scope.target_id, Campaign.tool == scope.tool]
    return [exists().where(CampaignTag.campaign_id == Campaign.id, CampaignTag.tag == scope.tag)]


def fill(scope: Scope, *, session: Session) -> int:
    """Store the rows of the scope's completed campaigns that have none yet; how many were added."""
    missing = (select(Campaign.id).where(*_campaign_conditions(scope), Campaign.status == CampaignStatus.COMPLETED,
                                         ~exists().where(TrendEntry.campaign_id == Campaign.id)).order_by(Campaign.id))  # fmt: skip
    ids = list(session.scalars(missing))
    for start in range(0, len(ids), FILL_CHUNK):
        chunk = ids[start:start + FILL_CHUNK]
        for campaign in session.scalars(select(Campaign).where(Campaign.id.in_(chunk)).options(selectinload(Campaign.points))):
            session.merge(entry_of(campaign))
        session.flush()
        session.expunge_all()
    return len(ids)


def record(campaign: Campaign, *, session: Session) -> TrendEntry | None:
    """Keep (or replace) a settled campaign's row; None for a campaign that did not complete."""
    if campaign.status != CampaignStatus.COMPLETED:
        return None
    entry = session.merge(entry_of(campaign))
    session.flush()
    return entry


def series(scope: Scope, *, session: Session, since: datetime | None = None, limit: int = MAX_SERIES) -> list[Row]:
    """The rows (TrendEntry's columns, read as plain tuples: 1,000 of them in a few ms) of the scope's completed,
    unarchived campaigns oldest first (the newest `limit` of them), ended at or after `since`."""
    fill(scope, session=session)
    query = select(*TrendEntry.__table__.columns).join(Campaign, Campaign.id == TrendEntry.campaign_id).where(Campaign.archived.is_(False))
    if scope.plan_id is not None:
        query = query.where(TrendEntry.plan_id == scope.plan_id)
    elif scope.target_id is not None:
        query = query.where(TrendEntry.target_id == scope.target_id, TrendEntry.tool == scope.tool)
    else:
        query = query.where(exists().where(CampaignTag.campaign_id == TrendEntry.campaign_id, CampaignTag.tag == scope.tag))
    if since is not None:
        query = query.where(TrendEntry.ended_at >= since)
    rows = list(session.execute(query.order_by(TrendEntry.ended_at.desc(), TrendEntry.campaign_id.desc()).limit(limit)))
    return rows[::-1]


def point_out(entry: Row) -> dict:
    """A row as the API shows it (TrendPoint's shape)."""
    e = entry._mapping
    return {"campaign_id": e["campaign_id"], "name": e["name"], "ended_at": e["ended_at"],
            "capacity": {"value": e["capacity"], "low": e["capacity_low"], "high": e["capacity_high"], "kind": e["capacity_kind"],
                         "bound": e["capacity_bound"]},
            "max_achieved_rate": e["max_achieved_rate"], "latency_p50_ms": e["latency_p50_ms"], "latency_p99_ms": e["latency_p99_ms"],
            "loss_pct": e["loss_pct"], "server_cost": e["server_cost"]}  # fmt: skip
