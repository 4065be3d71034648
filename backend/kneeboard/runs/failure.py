"""Ending a run that raised something unexpected: the campaign `failed` with the error on its report,
the point it was running failed, the rest not run, the lease released. Never left `running`."""

from __future__ import annotations

import logging

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.db import session_scope
from kneeboard.runs.leases import holds, release
from kneeboard.states import CampaignStatus, PointStatus

log = logging.getLogger(__name__)


def describe(exc: BaseException) -> str:
    """The error as the report shows it."""
    return f"internal error: {type(exc).__name__}: {exc}"[:2000]


def fail_run(campaign_id: int, owner: str, exc: BaseException) -> str:
    """Fail a campaign this holder was starting or running; returns its status (left alone when another holds it)."""
    reason = describe(exc)
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id, with_for_update=True)
        if campaign is None:
            return "missing"
        starting = campaign.status == CampaignStatus.QUEUED and campaign.lease_owner in {None, owner}
        if not (starting or holds(campaign, owner)):
            return campaign.status
        for point in campaign.points:
            if point.status == PointStatus.RUNNING:
                move_point(point, PointStatus.FAILED)
                point.error = reason
            elif point.status == PointStatus.PENDING:
                move_point(point, PointStatus.CANCELLED)
                point.error = "not run: the campaign failed first (resume runs it)"
        store(campaign)
        campaign.partial = any(p.status == PointStatus.COMPLETED for p in campaign.points)
        campaign.error = reason
        release(campaign)
        move_campaign(campaign, CampaignStatus.FAILED)
        log.error("campaign %s failed: %s", campaign_id, reason)
        return campaign.status
