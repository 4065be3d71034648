"""Every status a campaign, a point or an agent can have: the one place they are spelled."""

from __future__ import annotations

from enum import StrEnum


class CampaignStatus(StrEnum):
    """Where a campaign is in its life."""

    QUEUED = "queued"
    STARTING = "starting"
    RUNNING = "running"
    CANCELLING = "cancelling"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    CRASHED = "crashed"


CAMPAIGN_TERMINAL = frozenset({CampaignStatus.COMPLETED, CampaignStatus.FAILED, CampaignStatus.CANCELLED, CampaignStatus.CRASHED})


class PointStatus(StrEnum):
    """Where a point is in its life."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    CRASHED = "crashed"


class AgentStatus(StrEnum):
    """Whether an agent has been heard from recently."""

    ALIVE = "alive"
    SILENT = "silent"
