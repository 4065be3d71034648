"""Crashing a campaign whose lease expired, and sending again what a broker restart lost.

Both run in the reaper (the API process, every REAP_EVERY_S) and when an agent starts. Neither
touches a campaign whose lease is still being renewed: another live agent's work is its own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.runs.leases import HELD, release
from kneeboard.states import CampaignStatus, PointStatus


def crash(campaign: Campaign, reason: str) -> None:
    """End a campaign as crashed: its running point crashed, the rest not run, measured points kept."""
    for point in campaign.points:
        if point.status == PointStatus.RUNNING:
            move_point(point, PointStatus.CRASHED)
            point.error = f"{reason} while this point ran"
        elif point.status == PointStatus.PENDING:
            move_point(point, PointStatus.CANCELLED)
            point.error = "not run: the campaign crashed first (resume runs it)"
    store(campaign)
    campaign.partial = True
    campaign.error = reason
    release(campaign)
    move_campaign(campaign, CampaignStatus.CRASHED)


def crash_expired(*, session: Session) -> list[int]:
    """Crash every campaign whose lease ran out (its holder stopped renewing it); returns their ids.

    Each crash first takes the campaign by a conditional update (still held, still expired, same holder), so a
    lease renewed since the read, or a campaign another reaper crashed meanwhile, is left alone.
    """
    now = utcnow()
    seen = session.execute(select(Campaign.id, Campaign.lease_owner).where(Campaign.status.in_(HELD), Campaign.lease_expires_at < now)).all()
    ids = []
    for campaign_id, owner in seen:
        taken = session.execute(
            update(Campaign)
            .where(Campaign.id == campaign_id, Campaign.status.in_(HELD), Campaign.lease_expires_at < utcnow(), Campaign.lease_owner == owner)
            .values(lease_owner=owner)
            .execution_options(synchronize_session=False)
        )  # fmt: skip
        if taken.rowcount != 1:
            continue
        campaign = session.get(Campaign, campaign_id, populate_existing=True)
        last = as_utc(campaign.lease_expires_at) - timedelta(seconds=get_settings().lease_s)
        crash(campaign, f"agent {campaign.agent} stopped renewing its lease at {last:%H:%M:%S} UTC "
                        "(worker killed, host down, or the database unreachable)")  # fmt: skip
        ids.append(campaign.id)
    return ids


def redispatch_stale(dispatch: Callable[[int, str], None], *, session: Session, agent: str | None = None,
                     older_than_s: float | None = None) -> list[int]:
    """Send again the queued campaigns that no agent took within REDISPATCH_AFTER_S (lost messages).

    Sending twice is harmless: an agent takes a campaign only by claiming its lease.
    """
    wait = get_settings().redispatch_after_s if older_than_s is None else older_than_s
    cutoff = utcnow() - timedelta(seconds=wait)
    query = select(Campaign).where(Campaign.status == CampaignStatus.QUEUED,
                                   (Campaign.dispatched_at.is_(None)) | (Campaign.dispatched_at < cutoff))  # fmt: skip
    if agent is not None:
        query = query.where(Campaign.agent == agent)
    ids = []
    for campaign in session.scalars(query):
        campaign.dispatched_at = utcnow()
        ids.append((campaign.id, campaign.agent))
    session.flush()
    for campaign_id, name in ids:
        dispatch(campaign_id, name)
    return [campaign_id for campaign_id, _ in ids]
