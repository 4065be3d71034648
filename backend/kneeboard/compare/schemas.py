"""Comparison response bodies."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from kneeboard.campaigns.schemas import CampaignOut, PointOut
from kneeboard.evidence.schemas import Bottleneck

Verdict = Literal["better", "worse", "no detectable difference", "equivalent", "not enough data", "mixed"]
CapacityKind = Literal["between", "at_least", "below"]


class Delta(BaseModel):
    """A campaign's difference from the first one."""

    abs: float
    pct: float | None


class NextStep(BaseModel):
    """What would decide an undecided verdict, from the spread its test measured (analysis/verdicts.next_step)."""

    change_pct: float = Field(description="the change it is sized for, % of the reference's mean (10)")
    repetitions: int | None = Field(description="repetitions a side, at the same point length, that would detect that change "
                                    "(α = 1 − confidence, power 0.8); null: no spread measured yet")
    now: int = Field(description="the repetitions the fewer side has")
    detectable_pct: float | None = Field(description="the change these repetitions could detect, % (α, power 0.8)")
    text: str


class Headline(BaseModel):
    """One headline metric across the campaigns (keys are the selectors: "12" or "12@variant")."""

    metric: str
    label: str
    unit: str
    better: Literal["higher", "lower"]
    values: dict[str, float | None]
    intervals: dict[str, list[float] | None] | None = None
    deltas: dict[str, Delta | None]
    verdicts: dict[str, Verdict | None]
    verdict_texts: dict[str, str | None] = Field(default_factory=dict, description='the verdict as said: "equivalent within ±2 %"')
    basis: dict[str, str | None] = Field(description="per campaign, what this row's verdict rests on (the points or repetitions "
                                         "tested); the method common to every row is the comparison's `method`")
    details: dict[str, str | None] = Field(default_factory=dict, description="the line a reader sees under the verdict: the smallest "
                                           "detectable change (α, power), or what bounds allow (\"both ≥ 4,000 q/s; widen the range\")")
    next_steps: dict[str, NextStep | None] = Field(default_factory=dict, description="per campaign whose verdict is undecided (no "
                                                   "detectable difference, not enough data), the repetitions that would decide a 10 % change")
    kinds: dict[str, CapacityKind | None] | None = Field(default=None, description="capacity at SLO only: each value's kind (between: "
                                                         "measured; at_least: ≥ value; below: < value)")


class MetricVerdict(BaseModel):
    """One metric over a comparison's matched points: the verdict and how many points went which way."""

    verdict: Verdict | None
    better: int
    worse: int
    same: int
    equivalent: int = 0
    few: int
    basis: str
    margin_pct: float | None = None
    detectable_pct: float | None = Field(default=None, description="the smallest detectable change, % (α = 1 − confidence, power 0.8)")
    detail: str | None = None
    effect: float | None = Field(default=None, description="the mean of B − A over the points tested: a better or worse verdict "
                                 "follows its direction, else it is mixed")
    effect_pct: float | None = Field(default=None, description="the effect in % of the reference's mean over those points")
    next_step: NextStep | None = Field(default=None, description="the repetitions that would detect a 10 % change at every point")


class PointVerdicts(BaseModel):
    """Per matched point and metric (Welch's t-test, corrected with every test of the comparison), and per metric overall."""

    confidence: float
    margin_pct: float | None = None
    tests: int | None = Field(default=None, description="how many tests were corrected together (every metric at every matched "
                              "point, and the capacities)")
    families: int | None = Field(default=None, description="the families they form: each metric over its points, each capacity")
    points: list[dict[str, Any]]
    overall: dict[str, MetricVerdict]


class Difference(BaseModel):
    """A plan parameter or environment fact whose value is not the same everywhere."""

    key: str
    values: dict[str, str | None]


class Differences(BaseModel):
    """What differs between the campaigns."""

    plan: list[Difference]
    target: list[Difference]
    environment: list[Difference]


class Across(BaseModel):
    """One figure of a failure event across the repetitions that had it."""

    median: float
    min: float
    max: float
    n: int = Field(description="how many of the event's repetitions had the figure")


class FailoverEventRow(BaseModel):
    """One failure event of a plan at one load, across the repetitions that ran it (analysis/failover_events.py)."""

    phase: str
    concurrency: int | None
    offered_rate: float | None
    action: str
    value: str
    at_s: float
    events: int = Field(description="how many points ran it (one per repetition)")
    detection_s: Across | None = Field(description="event to last failed request; none when nothing failed")
    recovery_s: Across | None = Field(description="the backend listening again to its first answer; none when it was not brought back")
    failed: Across | None = Field(description="failed requests, every class")
    error_window_s: Across | None = Field(description="first to last failed request; none when nothing failed")


class Comparison(BaseModel):
    """Two or more campaigns side by side."""

    selectors: list[str]
    margin_pct: float = Field(description="the practical margin (±%) of equivalence: the reference campaign's plan's margin_pct")
    method: str | None = Field(default=None, description="how every verdict of the comparison is decided, said once")
    campaigns: list[CampaignOut]
    points: dict[str, list[PointOut]]
    headline: list[Headline]
    failover_events: dict[str, list[FailoverEventRow]] = Field(
        default_factory=dict, description="per selector, its failure events across repetitions, from the points' extra.failover")
    bottlenecks: dict[str, Bottleneck | None] = Field(
        default_factory=dict, description="each selection's bottleneck as its analysis names it (evidence.bottleneck), by selector")
    point_verdicts: dict[str, PointVerdicts]
    grafana_url: str | None = Field(default=None, description="the Grafana dashboard over the campaigns' time range, each campaign "
                                                              "selected (GRAFANA_URL set; docs/prometheus.md)")
    differences: Differences
