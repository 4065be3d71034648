"""The search's results as the API shows them (on a campaign's analysis)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class SearchCapacity(BaseModel):
    """One criterion's capacity: `value` is the highest load that met it (RFC 2544's throughput) with `kind`
    "between" (`low` met it, `high` did not: the interval, known to `resolution_pct`), "at_least" (met at the top
    of the range) or "below" (missed at its bottom)."""

    criterion: str = Field(description='"latency_p99_ms ≤ 10"')
    metric: str
    limit: float
    kind: Literal["between", "at_least", "below"]
    value: float | None
    low: float | None = None
    high: float | None = None
    trials: int = Field(description="trials this criterion asked for (others' trials are shared)")
    resolution_pct: float
    statement: str


class SearchBracket(BaseModel):
    """Where a search stands (live, or when it stopped before the end)."""

    criterion: str
    low: float | None = None
    high: float | None = None
    rate: float = Field(description="the trial asked for next")
    duration_s: float
    stage: int
    range: list[float] = Field(description="[low, high] of the phase")


class SearchResult(BaseModel):
    """One search (a phase, per variant and repetition): its capacities when done, else its bracket."""

    phase_index: int
    variant: str | None = None
    repeat: int = 0
    done: bool
    trials: int
    trial_seconds: float
    unit: str
    criteria: list[SearchCapacity] = Field(default_factory=list)
    bracket: SearchBracket | None = None
