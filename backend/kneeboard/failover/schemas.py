"""What the outcomes route answers."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class OutcomesSummary(BaseModel):
    """The point's outcomes judged whole (no event named): failures by class, their window, the longest gap between
    successes, the spread over the counted header's values, and persistence per connection."""

    failed_by_class: dict[str, int]
    error_window: dict[str, float] | None = Field(description="first to last failure, seconds from the point's start")
    longest_gap: dict[str, float] | None = Field(description="the longest run of buckets without a success")
    spread: dict[str, dict[str, float]] = Field(description="per header value: requests and share")
    persistence: dict[str, Any] | None = Field(description="per connection: the share of its requests on its main value")


class PointOutcomes(BaseModel):
    """A kbhttp point's request outcomes per bucket of intended send time, as stored, and their summary."""

    point_id: int
    outcomes: dict[str, Any] = Field(description="bucket_ms, buckets, header, and one series per outcome class and header value")
    summary: OutcomesSummary
