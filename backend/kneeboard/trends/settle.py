"""After a campaign settles: its trend row, its plan's change points found again, and who is told."""

from __future__ import annotations

import logging

from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.promql import remote_write
from kneeboard.states import CampaignStatus
from kneeboard.trends.changes import refresh
from kneeboard.trends.service import Scope, record

log = logging.getLogger(__name__)


def settled(campaign_id: int) -> None:
    """In its own transaction, after the campaign's status and analysis are stored; never raises (the campaign is
    settled whatever happens here; a missing row is filled in when a trend is read, change points at the next settle)."""
    from kneeboard.webhooks.service import notify

    try:
        with session_scope() as session:
            campaign = session.get(Campaign, campaign_id)
            if campaign is None or campaign.status != CampaignStatus.COMPLETED:
                return
            record(campaign, session=session)
            new = refresh(Scope(plan_id=campaign.plan_id), session=session) if campaign.plan_id is not None else []
            notify(campaign, new, session=session)
    except Exception:  # noqa: BLE001 - a trend or webhook bug must not touch the settled campaign
        log.exception("trend update after campaign %s failed", campaign_id)
    remote_write.after_campaign(campaign_id)  # results out to the team's Prometheus; never raises
