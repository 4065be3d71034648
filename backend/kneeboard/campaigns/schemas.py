"""Campaign, point and sample response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.plans.schemas import PointPreview
from kneeboard.validators import Tag

METRIC_NAMES = (
    "offered_rate", "achieved_rate", "efficiency", "inflight",
    "latency_avg_ms", "latency_min_ms", "latency_max_ms", "latency_stddev_ms",
    "latency_p50_ms", "latency_p75_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms",
    "sent", "completed", "lost", "loss_pct", "errors", "throughput_bps", "jitter_ms", "retransmits",
)  # fmt: skip


class CampaignCreate(BaseModel):
    """Launch a stored plan."""

    model_config = ConfigDict(extra="forbid")

    plan_id: int = Field(ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    tags: list[Tag] = Field(default_factory=list, max_length=20)


class Progress(BaseModel):
    """How far a campaign is: points done of total, elapsed and estimated remaining seconds."""

    done: int
    total: int
    failed: int
    elapsed_s: float | None
    eta_s: float | None
    running_point_id: int | None
    queue_position: int | None = Field(description="campaigns ahead of this one on its agent (0 = next or running)")


class Summary(BaseModel):
    """Headline figures of a campaign."""

    max_achieved_rate: float | None
    baseline_latency_ms: float | None
    loss_pct: float | None
    points_completed: int
    points_failed: int


class CampaignBrief(BaseModel):
    """A campaign in a list."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    tool: str
    status: str
    partial: bool
    error: str | None
    tags: list[str]
    agent: str
    source: str
    plan_id: int | None
    target_id: int | None
    target: dict[str, Any]
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    progress: Progress
    summary: Summary


class CampaignOut(CampaignBrief):
    """A campaign with its frozen plan, environment facts and analysis."""

    plan: dict[str, Any]
    environment: dict[str, Any]
    analysis: dict[str, Any] | None


class CampaignPage(BaseModel):
    """One page of campaigns, newest first."""

    items: list[CampaignBrief]
    total: int
    limit: int
    offset: int


class PointOut(PointPreview):
    """A point's parameters, status and metrics."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    campaign_id: int
    status: str
    error: str | None
    warnings: list[str]
    metrics: dict[str, float | None]
    extra: dict[str, Any]
    started_at: datetime | None
    ended_at: datetime | None


class PointEvidence(PointOut):
    """A point with its evidence: exact argv, tool version, exit code, raw output."""

    argv: list[str]
    tool_version: str | None
    exit_code: int | None
    stdout: str
    stderr: str
    parser_version: str | None
    agent: str | None


class SampleOut(BaseModel):
    """One interval of a series."""

    t: float
    series: str
    values: dict[str, float | None]


class SampleSeries(BaseModel):
    """A point's samples, downsampled to at most `max_points` per series."""

    point_id: int
    downsampled: bool
    samples: list[SampleOut]
