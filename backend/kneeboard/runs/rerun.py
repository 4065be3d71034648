"""Run again: a new campaign from another one's frozen plan and target, for a like-for-like comparison."""

from __future__ import annotations

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.service import get_campaign, points_of
from kneeboard.db import utcnow
from kneeboard.errors import Conflict
from kneeboard.plans.schemas import PlanBody
from kneeboard.plans.service import check_plan
from kneeboard.states import CampaignStatus

_PLAN = TypeAdapter(PlanBody)


def rerun(campaign_id: int, *, session: Session) -> Campaign:
    """A queued copy of a live campaign: the same frozen plan (its uploaded profile too), target and agent."""
    original = get_campaign(campaign_id, session=session)
    if original.source != "live" or original.target_id is None:
        raise Conflict(f"campaign {campaign_id} was imported or its target is gone; there is nothing to run again")
    plan = _PLAN.validate_python({k: v for k, v in original.plan.items() if k != "profile_document"})
    check_plan(plan, session=session)
    campaign = Campaign(
        name=f"{original.name} (again)", tool=original.tool, plan_id=original.plan_id, target_id=original.target_id,
        plan=dict(original.plan), target=dict(original.target), status=CampaignStatus.QUEUED,
        tags=list(original.tags), agent=original.agent, dispatched_at=utcnow(),
    )  # fmt: skip
    campaign.points = points_of(plan)
    store(campaign)
    session.add(campaign)
    session.flush()
    return campaign
