"""Resume: run again, on the same campaign, only the points that did not complete."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign, SampleRow
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.service import get_campaign
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.db import utcnow
from kneeboard.errors import Conflict
from kneeboard.states import CampaignStatus, PointStatus

RESUMABLE = (CampaignStatus.CRASHED, CampaignStatus.CANCELLED)
_CLEARED = {"error": None, "warnings": [], "metrics": {}, "extra": {}, "argv": [], "tool_version": None, "exit_code": None,
            "stdout": "", "stderr": "", "parser_version": None, "agent": None, "started_at": None, "ended_at": None}


def resume(campaign_id: int, *, session: Session) -> Campaign:
    """Queue a crashed or cancelled campaign again with its frozen plan: completed points and their
    samples stay untouched; every other point is reset in place (same row) for the next attempt."""
    campaign = get_campaign(campaign_id, session=session, lock=True)
    if campaign.status not in RESUMABLE:
        raise Conflict(f"campaign {campaign_id} is {campaign.status}; only a crashed or cancelled campaign can be resumed")
    redo = [p for p in campaign.points if p.status != PointStatus.COMPLETED]
    if not redo:
        raise Conflict(f"campaign {campaign_id} has no point left to run")
    campaign.attempt += 1
    session.execute(delete(SampleRow).where(SampleRow.point_id.in_([p.id for p in redo])))
    for point in redo:
        if point.status == PointStatus.RUNNING:  # its run ended without storing it: it crashed
            move_point(point, PointStatus.CRASHED)
        if point.status != PointStatus.PENDING:
            move_point(point, PointStatus.PENDING)
        derived = (point.extra or {}).get("rate_from")  # a derived load is resolved again, within the bound it was launched with
        for column, value in _CLEARED.items():
            setattr(point, column, value)
        if derived:
            point.extra = {"rate_from": {"most": derived.get("most")}}
        point.attempt = campaign.attempt
    store(campaign)
    campaign.error, campaign.analysis, campaign.ended_at, campaign.partial = None, None, None, False
    campaign.lease_owner, campaign.lease_expires_at, campaign.dispatched_at = None, None, utcnow()
    move_campaign(campaign, CampaignStatus.QUEUED)
    session.flush()
    return campaign
