"""The phases of the method, validated against the configured caps."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from kneeboard.config import get_settings
from kneeboard.events.schemas import MAX_EVENTS, PointEvent
from kneeboard.fanout.schemas import Agents


def _cap_concurrency(value: int) -> int:
    cap = get_settings().max_concurrency
    if value > cap:
        raise ValueError(f"must be at most {cap} (MAX_CONCURRENCY)")
    return value


def _cap_rate(value: float) -> float:
    cap = get_settings().max_rate
    if value > cap:
        raise ValueError(f"must be at most {cap:g} (MAX_RATE)")
    return value


def _cap_duration(value: float) -> float:
    cap = get_settings().max_duration_s
    if value > cap:
        raise ValueError(f"must be at most {cap:g} s (MAX_DURATION_S)")
    return value


Concurrency = Annotated[int, Field(ge=1, strict=True), AfterValidator(_cap_concurrency)]
Rate = Annotated[float, Field(gt=0), AfterValidator(_cap_rate)]
Duration = Annotated[float, Field(gt=0), AfterValidator(_cap_duration)]


class RateRange(BaseModel):
    """Offered rates from start to stop (inclusive) in steps."""

    model_config = ConfigDict(extra="forbid")

    start: Rate
    stop: Rate
    step: Rate

    @model_validator(mode="after")
    def _ordered(self) -> RateRange:
        if self.stop < self.start:
            raise ValueError("stop must not be below start")
        if (self.stop - self.start) / self.step > get_settings().max_points:
            raise ValueError("the range has more steps than MAX_POINTS")
        return self

    def values(self) -> list[float]:
        """The rates of the range."""
        count = int((self.stop - self.start) / self.step + 1e-9) + 1
        return [round(self.start + i * self.step, 6) for i in range(count)]


RateSweep = list[Rate] | RateRange
FOUND_FIGURES = ("capacity", "knee", "ceiling")


class Found(BaseModel):
    """What an earlier phase of the same run found: a search's capacity (for one of its criteria, by index), or a
    sweep's knee or ceiling (the report's own rules)."""

    model_config = ConfigDict(extra="forbid")

    phase: str = Field(min_length=1, max_length=80, description="the earlier phase's label")
    of: Literal[FOUND_FIGURES]  # type: ignore[valid-type]
    criterion: int = Field(default=0, ge=0, le=3, description="a search's criterion (its index) whose capacity is meant")
    why: str | None = Field(default=None, max_length=200, description="why this figure and fraction: the report says it with the rate")


class DerivedRate(Found):
    """An offered rate resolved when the phase starts: `fraction` × what an earlier phase found."""

    fraction: float = Field(gt=0, le=1.5)


class _Phase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    duration_s: Duration
    label: str | None = Field(default=None, max_length=80)
    warmup_s: float | None = Field(default=None, ge=0, le=3600, description="left out of each point's steady window (default: the tool's)")
    agents: Agents = None  # this phase's own fan-out (default: the plan's)
    events: list[PointEvent] = Field(default_factory=list, max_length=MAX_EVENTS,
                                     description="registered actions fired during each of its points (lab targets; docs/failover.md)")


class BaselinePhase(_Phase):
    """A low-rate serial point: the system's floor."""

    kind: Literal["baseline"]
    concurrency: Concurrency = 1
    rate: Rate | None = None


class ScalabilityPhase(_Phase):
    """A concurrency list; offered rate = concurrency × unit_rate (unlimited when unit_rate is absent)."""

    kind: Literal["scalability"]
    concurrency: Annotated[list[Concurrency], Field(min_length=1)]
    unit_rate: Rate | None = None

    @model_validator(mode="after")
    def _products_capped(self) -> ScalabilityPhase:
        if self.unit_rate is not None:
            _cap_rate(max(self.concurrency) * self.unit_rate)
        return self


class SaturationPhase(_Phase):
    """Fixed concurrency, offered rates from a list or a start/stop/step range."""

    kind: Literal["saturation"]
    concurrency: Concurrency
    rate: RateSweep


class StabilityPhase(_Phase):
    """One long point near the knee: a fixed rate, or a fraction of what an earlier phase found (DerivedRate)."""

    kind: Literal["stability"]
    concurrency: Concurrency
    rate: Rate | DerivedRate | None = None


class FractionsPhase(_Phase):
    """Latency at fractions of what an earlier phase found (FD.io CSIT's 10/50/90 % of the throughput its search found):
    one point per fraction, in order, each resolved when it starts."""

    kind: Literal["fractions"]
    concurrency: Concurrency
    found: Found
    fractions: Annotated[list[Annotated[float, Field(gt=0, le=1.5)]], Field(min_length=1, max_length=10)] = [0.1, 0.5, 0.9]


class CustomPhase(_Phase):
    """Any concurrency list crossed with any rate list."""

    kind: Literal["custom"]
    concurrency: Concurrency | Annotated[list[Concurrency], Field(min_length=1)]
    rate: Rate | RateSweep | None = None


class RampPhase(_Phase):
    """A stress ramp: concurrency doubles from `concurrency` to `max_concurrency` until errors pass `stop_error_pct`."""

    kind: Literal["ramp"]
    concurrency: Concurrency
    max_concurrency: Concurrency
    stop_error_pct: float = Field(default=10.0, gt=0, le=100)

    @model_validator(mode="after")
    def _ordered(self) -> RampPhase:
        if self.max_concurrency < self.concurrency:
            raise ValueError("max_concurrency must not be below concurrency")
        return self


MAX_TIME_BUDGET_S = 7 * 86_400
SEARCH_METRICS = ("latency_avg_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms", "loss_pct", "efficiency_pct")


class SearchCriterion(BaseModel):
    """One limit the search finds the capacity for: a latency (ms) ≤ limit, loss_pct ≤ limit, or efficiency_pct ≥ limit."""

    model_config = ConfigDict(extra="forbid")

    metric: Literal[SEARCH_METRICS]  # type: ignore[valid-type]
    limit: float = Field(ge=0, le=600_000)

    @model_validator(mode="after")
    def _percent_in_range(self) -> SearchCriterion:
        if self.metric in {"loss_pct", "efficiency_pct"} and self.limit > 100:
            raise ValueError(f"limit: {self.metric} is a percentage; at most 100")
        if self.metric == "efficiency_pct" and self.limit == 0:
            raise ValueError("limit: an efficiency of at least 0 % is no criterion")
        return self


class SearchPhase(_Phase):
    """Find the capacity at each criterion between `low` and `high` (offered rates, in total) to `resolution_pct`:
    bracket, then bisect, trials from duration_s / 8 doubling up to `duration_s` (the longest trial)."""

    kind: Literal["search"]
    concurrency: Concurrency = 1
    low: Rate
    high: Rate
    criteria: Annotated[list[SearchCriterion], Field(min_length=1, max_length=4)]
    resolution_pct: float = Field(default=1.0, ge=0.1, le=50, description="stop when the bracket is this narrow (% of the load)")
    min_duration_s: float | None = Field(default=None, gt=0, description="the shortest trial (default: duration_s / 8, at least 0.5 s)")
    repeats: int = Field(default=3, ge=1, le=9, description="full-length trials of the final lower bound; most must pass")
    time_budget_s: float | None = Field(default=None, gt=0, le=MAX_TIME_BUDGET_S,
                                        description="wall seconds the search may take (its trials, their start and pauses): it "
                                                    "stops before a trial that would pass it, with the bracket found so far")

    @model_validator(mode="after")
    def _ordered(self) -> SearchPhase:
        if self.high <= self.low:
            raise ValueError("high must be above low")
        if self.min_duration_s is not None and self.min_duration_s > self.duration_s:
            raise ValueError("min_duration_s must not be above duration_s")
        if self.time_budget_s is not None and self.time_budget_s < self.duration_s:
            raise ValueError("time_budget_s must leave room for one trial of duration_s")
        return self


Phase = Annotated[
    BaselinePhase | ScalabilityPhase | SaturationPhase | StabilityPhase | CustomPhase | RampPhase | SearchPhase | FractionsPhase,
    Field(discriminator="kind"),
]


AnyPhase = BaselinePhase | ScalabilityPhase | SaturationPhase | StabilityPhase | CustomPhase | RampPhase | SearchPhase | FractionsPhase


def derived_fractions(phase: AnyPhase | dict) -> tuple[dict, list[float]] | None:
    """A phase's derived load as (what it is found from, its fractions in point order); None for a fixed load."""
    data = phase if isinstance(phase, dict) else phase.model_dump()
    if data.get("kind") == "fractions":
        return data["found"], list(data["fractions"])
    rate = data.get("rate")
    if isinstance(rate, dict) and "fraction" in rate:
        return {k: v for k, v in rate.items() if k != "fraction"}, [rate["fraction"]]
    return None


def load_count(phase: AnyPhase) -> int:
    """How many (concurrency, rate) pairs a phase expands to, counted without building them (a search: its first trial)."""
    if isinstance(phase, SearchPhase):
        return 1
    if isinstance(phase, FractionsPhase):
        return len(phase.fractions)
    if isinstance(phase, ScalabilityPhase):
        return len(phase.concurrency)
    if isinstance(phase, RampPhase):
        return max(0, (phase.max_concurrency // phase.concurrency).bit_length())
    concurrencies = len(phase.concurrency) if isinstance(phase.concurrency, list) else 1
    rate = phase.rate
    rates = int((rate.stop - rate.start) / rate.step + 1e-9) + 1 if isinstance(rate, RateRange) else len(rate) if isinstance(rate, list) else 1
    return concurrencies * rates


FOUND_BY = {"capacity": ("search",), "knee": ("saturation", "scalability", "custom"), "ceiling": ("saturation", "scalability", "custom")}


def referenced(phases: list, found: dict) -> int | None:
    """The index of the phase a Found names by its label (None when no phase has that label)."""
    labels = [p.label if hasattr(p, "label") else p.get("label") for p in phases]
    return labels.index(found["phase"]) if found["phase"] in labels else None


def reference_error(phases: list[AnyPhase], index: int) -> str | None:
    """Why phase `index`'s derived load cannot be found (its reference missing, later, or of a kind that does not find
    that figure); None when it can, or when its load is fixed."""
    derived = derived_fractions(phases[index])
    if derived is None:
        return None
    found, _ = derived
    source = referenced(phases, found)
    if source is None:
        return f"no phase is labelled {found['phase']!r}"
    if source >= index:
        return f"phase {found['phase']!r} does not come before this one"
    kind = phases[source].kind
    if kind not in FOUND_BY[found["of"]]:
        return f"a {kind} phase finds no {found['of']} (a {' or '.join(FOUND_BY[found['of']])} phase does)"
    if kind == "search" and found.get("criterion", 0) >= len(phases[source].criteria):
        return f"phase {found['phase']!r} has no criterion {found['criterion']} (it has {len(phases[source].criteria)})"
    return None


def found_bound(phases: list[AnyPhase], found: dict, per_unit: bool = False) -> float | None:
    """The highest offered rate (in total) the referenced phase can find its figure at: a search's `high`, a sweep's
    top load (what caps and the target policy are checked against). `per_unit`: the tool's rates are per connection."""
    source = referenced(phases, found)
    if source is None:
        return None
    phase = phases[source]
    totals = not per_unit or phase.kind in {"scalability", "search"}
    rates = [rate if totals else rate * c for c, rate in phase_loads(phase) if rate is not None]
    return max(rates, default=None)


def phase_loads(phase: AnyPhase, bound: float | None = None) -> list[tuple[int, float | None]]:
    """The (concurrency, offered rate) pairs a phase expands to, in order. A search expands to its first trial, the top
    of its range (what caps are checked against); the worker creates its other trials as it goes. A derived load
    expands to its fractions of `bound` (found_bound: the highest it can be), resolved when its phase starts."""
    if (derived := derived_fractions(phase)) is not None:
        return [(phase.concurrency, round(bound * fraction, 6) if bound is not None else None) for fraction in derived[1]]
    if isinstance(phase, SearchPhase):
        return [(phase.concurrency, phase.high)]
    if isinstance(phase, ScalabilityPhase):
        return [(c, c * phase.unit_rate if phase.unit_rate else None) for c in phase.concurrency]
    if isinstance(phase, RampPhase):
        loads, c = [], phase.concurrency
        while c <= phase.max_concurrency:
            loads.append((c, None))
            c *= 2
        return loads
    concurrencies = phase.concurrency if isinstance(phase.concurrency, list) else [phase.concurrency]
    rate = phase.rate
    rates = rate.values() if isinstance(rate, RateRange) else rate if isinstance(rate, list) else [rate]
    return [(c, r) for c in concurrencies for r in rates]
