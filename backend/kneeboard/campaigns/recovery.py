"""What a restarting agent finds: campaigns it was running when it died are marked crashed."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.status import move_campaign, move_point


def mark_crashed(agent: str, *, session: Session) -> list[int]:
    """Campaigns left starting/running/cancelling on this agent become `crashed`; measured points stay."""
    stuck = session.scalars(select(Campaign).where(Campaign.agent == agent, Campaign.status.in_(("starting", "running", "cancelling"))))
    ids = []
    for campaign in stuck:
        for point in campaign.points:
            if point.status == "running":
                move_point(point, "crashed")
                point.error = "the agent stopped while this point ran"
            elif point.status == "pending":
                move_point(point, "cancelled")
        campaign.partial = True
        campaign.error = "the agent stopped while the campaign ran"
        move_campaign(campaign, "crashed")
        ids.append(campaign.id)
    return ids
