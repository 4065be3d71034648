"""The phases of the method, validated against the configured caps."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from kneeboard.config import get_settings
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


class _Phase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    duration_s: Duration
    label: str | None = Field(default=None, max_length=80)
    warmup_s: float | None = Field(default=None, ge=0, le=3600, description="left out of each point's steady window (default: the tool's)")
    agents: Agents = None  # this phase's own fan-out (default: the plan's)


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
    """One long point near the knee."""

    kind: Literal["stability"]
    concurrency: Concurrency
    rate: Rate | None = None


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


Phase = Annotated[
    BaselinePhase | ScalabilityPhase | SaturationPhase | StabilityPhase | CustomPhase | RampPhase,
    Field(discriminator="kind"),
]


def load_count(phase: BaselinePhase | ScalabilityPhase | SaturationPhase | StabilityPhase | CustomPhase | RampPhase) -> int:
    """How many (concurrency, rate) pairs a phase expands to, counted without building them."""
    if isinstance(phase, ScalabilityPhase):
        return len(phase.concurrency)
    if isinstance(phase, RampPhase):
        return max(0, (phase.max_concurrency // phase.concurrency).bit_length())
    concurrencies = len(phase.concurrency) if isinstance(phase.concurrency, list) else 1
    rate = phase.rate
    rates = int((rate.stop - rate.start) / rate.step + 1e-9) + 1 if isinstance(rate, RateRange) else len(rate) if isinstance(rate, list) else 1
    return concurrencies * rates


def phase_loads(phase: BaselinePhase | ScalabilityPhase | SaturationPhase | StabilityPhase | CustomPhase | RampPhase) -> list[tuple[int, float | None]]:
    """The (concurrency, offered rate) pairs a phase expands to, in order."""
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
