"""The one module that changes a campaign's or a point's status: a table of allowed transitions."""

from __future__ import annotations

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.db import utcnow
from kneeboard.states import CAMPAIGN_TERMINAL, CampaignStatus, PointStatus

C, P = CampaignStatus, PointStatus
CAMPAIGN_TRANSITIONS: dict[CampaignStatus, set[CampaignStatus]] = {
    C.QUEUED: {C.STARTING, C.CANCELLED, C.CRASHED, C.FAILED},
    C.STARTING: {C.RUNNING, C.FAILED, C.CANCELLING, C.CRASHED},
    C.RUNNING: {C.CANCELLING, C.COMPLETED, C.FAILED, C.CRASHED},
    C.CANCELLING: {C.CANCELLED, C.CRASHED, C.FAILED},
    C.COMPLETED: set(),
    C.FAILED: set(),
    C.CANCELLED: {C.QUEUED},  # resume
    C.CRASHED: {C.QUEUED},  # resume
}
POINT_TRANSITIONS: dict[PointStatus, set[PointStatus]] = {
    P.PENDING: {P.RUNNING, P.CANCELLED},
    P.RUNNING: {P.COMPLETED, P.FAILED, P.CANCELLED, P.CRASHED},
    P.COMPLETED: set(),
    P.FAILED: {P.PENDING, P.COMPLETED, P.CANCELLED},  # resume; a spooled result stored after its run ended
    P.CANCELLED: {P.PENDING},  # resume
    P.CRASHED: {P.PENDING, P.COMPLETED, P.FAILED, P.CANCELLED},  # resume; a spooled result stored after its run ended
}
CAMPAIGN_ACTIVE = frozenset(CAMPAIGN_TRANSITIONS) - CAMPAIGN_TERMINAL


class IllegalTransition(Exception):
    """A status change that the table does not allow."""


def _check(table: dict[str, set[str]], what: str, current: str, new: str) -> None:
    if new not in table.get(current, set()):
        raise IllegalTransition(f"{what} cannot go from {current!r} to {new!r}")


def move_campaign(campaign: Campaign, new: str) -> None:
    """Move a campaign to `new`, stamping start and end times; refuse what the table does not allow."""
    _check(CAMPAIGN_TRANSITIONS, f"campaign {campaign.id}", campaign.status, new)
    campaign.status = CampaignStatus(new)
    if new == CampaignStatus.STARTING:
        campaign.started_at = utcnow()
    if new in CAMPAIGN_TERMINAL:
        campaign.ended_at = utcnow()
    elif new == CampaignStatus.QUEUED:  # resumed: it has not ended
        campaign.ended_at = None


def move_point(point: Point, new: str) -> None:
    """Move a point to `new`, stamping start and end times; refuse what the table does not allow."""
    _check(POINT_TRANSITIONS, f"point {point.id}", point.status, new)
    point.status = PointStatus(new)
    if new == PointStatus.RUNNING:
        point.started_at = utcnow()
    elif new == PointStatus.PENDING:  # reset for a resumed attempt
        point.started_at = point.ended_at = None
    elif point.started_at is not None:
        point.ended_at = utcnow()
