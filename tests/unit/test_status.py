"""Every status transition, pair by pair: allowed ones move, the rest are refused and change nothing."""

from __future__ import annotations

import itertools

import pytest

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.status import (
    CAMPAIGN_TRANSITIONS, POINT_TRANSITIONS, IllegalTransition, move_campaign, move_point,
)  # fmt: skip

ALLOWED_CAMPAIGN = {
    ("queued", "starting"), ("queued", "cancelled"), ("queued", "crashed"), ("queued", "failed"),
    ("starting", "running"), ("starting", "failed"), ("starting", "cancelling"), ("starting", "crashed"),
    ("running", "cancelling"), ("running", "completed"), ("running", "failed"), ("running", "crashed"),
    ("cancelling", "cancelled"), ("cancelling", "crashed"), ("cancelling", "failed"),  # failed: an unexpected error
    ("crashed", "queued"), ("cancelled", "queued"),  # resume
}  # fmt: skip
ALLOWED_POINT = {
    ("pending", "running"), ("pending", "cancelled"),
    ("running", "completed"), ("running", "failed"), ("running", "cancelled"), ("running", "crashed"),
    ("failed", "pending"), ("cancelled", "pending"), ("crashed", "pending"),  # resume
    ("failed", "completed"), ("failed", "cancelled"),  # a spooled result stored after its run ended
    ("crashed", "completed"), ("crashed", "failed"), ("crashed", "cancelled"),
}  # fmt: skip


@pytest.mark.parametrize("current,new", list(itertools.product(CAMPAIGN_TRANSITIONS, repeat=2)))
def test_campaign_transition(current, new):
    campaign = Campaign(id=1, status=current)
    if (current, new) in ALLOWED_CAMPAIGN:
        move_campaign(campaign, new)
        assert campaign.status == new
        if new in {"completed", "failed", "cancelled", "crashed"}:
            assert campaign.ended_at is not None
        if new == "queued":
            assert campaign.ended_at is None
    else:
        with pytest.raises(IllegalTransition):
            move_campaign(campaign, new)
        assert campaign.status == current and campaign.ended_at is None


@pytest.mark.parametrize("current,new", list(itertools.product(POINT_TRANSITIONS, repeat=2)))
def test_point_transition(current, new):
    point = Point(id=1, status=current)
    if (current, new) in ALLOWED_POINT:
        move_point(point, new)
        assert point.status == new
    else:
        with pytest.raises(IllegalTransition):
            move_point(point, new)
        assert point.status == current


def test_unknown_status_is_refused():
    with pytest.raises(IllegalTransition):
        move_campaign(Campaign(id=1, status="queued"), "exploded")
