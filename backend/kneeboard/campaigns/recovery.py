"""What a restarting agent finds: campaigns it was running when it died are marked crashed."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.states import CampaignStatus, PointStatus


def mark_crashed(agent: str, *, session: Session) -> list[int]:
    """Campaigns left starting/running/cancelling on this agent become `crashed`; measured points stay."""
    stuck = session.scalars(select(Campaign).where(Campaign.agent == agent, Campaign.status.in_((CampaignStatus.STARTING, CampaignStatus.RUNNING, CampaignStatus.CANCELLING))))
    ids = []
    for campaign in stuck:
        for point in campaign.points:
            if point.status == PointStatus.RUNNING:
                move_point(point, PointStatus.CRASHED)
                point.error = "the agent stopped while this point ran"
            elif point.status == PointStatus.PENDING:
                move_point(point, PointStatus.CANCELLED)
        campaign.partial = True
        campaign.error = "the agent stopped while the campaign ran"
        move_campaign(campaign, CampaignStatus.CRASHED)
        ids.append(campaign.id)
    return ids
