"""The shapes every tool adapter shares: what a point asks for and what it measured."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ToolInputError(ValueError):
    """Parameters a tool cannot be run with (caught before anything runs)."""


@dataclass(frozen=True)
class PointSpec:
    """One concrete tool execution: the parameters a phase expanded to."""

    host: str
    port: int
    concurrency: int
    rate: float | None
    duration_s: float
    params: dict[str, Any] = field(default_factory=dict)
    documents: dict[str, Any] = field(default_factory=dict)  # stored documents a tool needs, e.g. devsim's profile
    host_name: str | None = None  # the target's name when `host` is the address checked for it (HTTP Host header)

    @property
    def offered_rate(self) -> float | None:
        """The point's offered rate (the name plan-level checks use)."""
        return self.rate


@dataclass
class Sample:
    """One interval of a point's time series. `t` is seconds since the epoch."""

    t: float
    values: dict[str, float | None]
    series: str = "point"  # "point" for the tool itself, e.g. "mpstat.cpu0" or "ping" for monitors


@dataclass
class PointResult:
    """What a parser read from one run: common metrics, tool extras, samples, an error."""

    metrics: dict[str, float | None] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
    error: str | None = None
    parser_version: str = "1"


def derive(metrics: dict[str, float | None], offered_rate: float | None) -> dict[str, float | None]:
    """Add offered_rate, efficiency (achieved/offered) and inflight (Little's law L = X*W)."""
    out = dict(metrics)
    out["offered_rate"] = offered_rate
    achieved = out.get("achieved_rate")
    latency_ms = out.get("latency_avg_ms")
    out["efficiency"] = achieved / offered_rate if achieved is not None and offered_rate else None
    out["inflight"] = achieved * latency_ms / 1000.0 if achieved is not None and latency_ms is not None else None
    return out
