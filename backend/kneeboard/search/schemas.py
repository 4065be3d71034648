"""The search's results as the API shows them (on a campaign's analysis)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class LimitedTrial(BaseModel):
    """The trial at a criterion's failing bound whose load the generator did not send (the server's capacity may be higher)."""

    offered_rate: float
    sent_pct: float
    cause: str = Field(description='"outstanding", "cpu", "sockets" or "unknown" (analysis/generator.py)')
    suggestion: str | None = None


class CriterionCapacity(BaseModel):
    """A criterion and the capacity found for it: `kind` says what `value` is (between: measured; at_least, below: a bound)."""

    criterion: str = Field(description='"latency_p99_ms ≤ 10"')
    metric: str
    limit: float
    kind: Literal["between", "at_least", "below"]
    value: float | None


class SearchCapacity(CriterionCapacity):
    """One criterion's capacity: `value` is the highest load that met it (RFC 2544's throughput) with `kind`
    "between" (`low` met it, `high` did not: the interval, known to `resolution_pct`), "at_least" (met at the top
    of the range) or "below" (missed at its bottom)."""

    low: float | None = None
    high: float | None = None
    trials: int = Field(description="trials this criterion asked for (others' trials are shared)")
    resolution_pct: float
    statement: str
    generator_limited: LimitedTrial | None = Field(default=None, description="set when the failing bound `high` was not sent by the generator")


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
    stopped: str | None = Field(default=None, description="why it ended before its resolution (its time budget), with `bracket` as found")


class SearchProgress(BaseModel):
    """A running campaign's current search: its trials so far and where its bracket stands (instead of a total and ETA)."""

    phase_index: int
    variant: str | None = None
    repeat: int = 0
    trials: int = Field(description="trials of this search that ended")
    unit: str
    bracket: SearchBracket
    narrowed_pct: float = Field(description="how far the bracket has narrowed from the whole range to the resolution, in % (log scale)")


class SearchEstimate(BaseModel):
    """What one search phase may take, per run of it (each variant and repetition runs it again): the range over where
    the limit lies, for a server whose limit is sharp; disagreeing trials can take more, which `time_budget_s` caps."""

    phase_index: int
    runs: int = Field(description="times the phase runs (variants × repetitions)")
    trials_min: int
    trials_max: int
    seconds_min: float
    seconds_max: float
    time_budget_s: float | None = None
    budget_bound: bool = Field(description="the most is where the time budget stops it")
