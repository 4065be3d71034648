"""Histogram response bodies."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Window = Literal["all", "steady"]


class Bucket(BaseModel):
    """One log-spaced latency bucket: values in (from_ms, value_ms], and the share of all values up to value_ms."""

    from_ms: float
    value_ms: float
    count: int
    percentile: float


class PercentileValue(BaseModel):
    """One row of the percentile table (percentile 99.9 is p99.9)."""

    percentile: float
    value_ms: float | None


class Histogram(BaseModel):
    """A point's latency distribution: the whole run, or its steady window (the intervals after the warm-up)."""

    point_id: int
    window: Window
    intervals: int | None  # how many interval histograms were merged (steady window only)
    count: int
    min_ms: float | None
    max_ms: float | None
    mean_ms: float | None
    percentiles: list[PercentileValue]
    buckets: list[Bucket]
