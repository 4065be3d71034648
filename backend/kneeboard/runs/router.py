"""Resume and run-again routes: the execution side of a campaign."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.auth.deps import CurrentUser
from kneeboard import live
from kneeboard.campaigns import service
from kneeboard.campaigns.dispatch import DispatcherDep
from kneeboard.campaigns.schemas import CampaignOut
from kneeboard.deps import SessionDep
from kneeboard.campaigns.launch import start
from kneeboard.runs.rerun import rerun
from kneeboard.runs.resume import resume

router = APIRouter(tags=["campaigns"])


@router.post("/campaigns/{campaign_id}/resume", response_model=CampaignOut, status_code=202)
def resume_campaign(session: SessionDep, campaign_id: int, user: CurrentUser, enqueue: DispatcherDep):
    """Run the points of a crashed or cancelled campaign that did not complete, on the same campaign, within the
    caller's caps and the policy in force now (whoever launched it first)."""
    campaign = start(lambda: resume(campaign_id, session=session), user=user, action="resume",
                     details=lambda made: {"attempt": made.attempt}, session=session, enqueue=enqueue)
    live.publish(campaign_id, "status", {"status": campaign.status})
    return service.describe(campaign, session=session)


@router.post("/campaigns/{campaign_id}/rerun", response_model=CampaignOut, status_code=202)
def rerun_campaign(session: SessionDep, campaign_id: int, user: CurrentUser, enqueue: DispatcherDep):
    """Run a campaign again as a new campaign (same frozen plan and target), to compare with the original."""
    campaign = start(lambda: rerun(campaign_id, session=session), user=user, action="rerun",
                     details=lambda _made: {"from": campaign_id}, session=session, enqueue=enqueue)
    return service.describe(campaign, session=session)
