"""Trend response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

Metric = Literal["capacity_at_slo", "max_achieved_rate", "latency_p50_ms", "latency_p99_ms", "loss_pct", "server_cost"]


class Capacity(BaseModel):
    """Capacity at SLO: a figure with its interval (kind between), a lower bound (at_least) or none reached (below)."""

    value: float | None
    low: float | None
    high: float | None
    kind: Literal["between", "at_least", "below"] | None
    bound: float | None


class TrendPoint(BaseModel):
    """One completed campaign of the series."""

    campaign_id: int
    name: str
    ended_at: datetime | None
    capacity: Capacity
    max_achieved_rate: float | None
    latency_p50_ms: float | None
    latency_p99_ms: float | None
    loss_pct: float | None
    server_cost: float | None = None  # the server's CPU-s per unit of work (server evidence), when an exporter read it


class Differences(BaseModel):
    """What differed between the two campaigns around a change (the comparison's diff, and the notes)."""

    plan: list[dict] = []
    target: list[dict] = []
    environment: list[dict] = []
    notes: list[dict] = []


class ChangePointOut(BaseModel):
    """A change of one metric between two consecutive campaigns, with its size (after − before) and 95 % interval."""

    metric: Metric
    before_campaign_id: int
    after_campaign_id: int
    mean_before: float
    mean_after: float
    diff: float
    ci_low: float
    ci_high: float
    change_pct: float | None
    pvalue: float
    direction: Literal["better", "worse"]
    differences: Differences
    detected_at: datetime | None
    compare_url: str


class Scope(BaseModel):
    """What the trend follows."""

    key: str
    plan_id: int | None
    target_id: int | None
    tool: str | None
    tag: str | None


class Trend(BaseModel):
    """A series of completed campaigns, oldest first, with the change points of `metric`."""

    scope: Scope
    metric: Metric
    baseline_campaign_id: int | None
    points: list[TrendPoint]
    change_points: list[ChangePointOut]
