"""The shape of GET /tools (what `ToolAdapter.describe` returns)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from kneeboard.tools.contract import Role


class MetricOut(BaseModel):
    """One metric: its unit, which way is better, and whether it is the tool's headline."""

    name: str
    title: str
    unit: str
    better: Literal["higher", "lower"] | None
    headline: bool


class ToolOut(BaseModel):
    """A registered tool as the UI learns it."""

    name: str
    title: str
    role: Role
    target_kinds: list[str]
    params_schema: dict[str, Any]
    metrics: list[MetricOut]
    headline: str | None
    concurrency_label: str
    max_concurrency: int
    takes_rate: bool
    rate_per_concurrency: bool
    whole_seconds: bool
    ramp_allowed: bool
    monitors: bool
    live_samples: bool
    warmup_s: float
    rate_unit: str
    work_unit: str = Field(description="what the server's cost per unit of work is given per (\"1,000 queries\")")
