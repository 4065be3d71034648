"""Comparison response bodies."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from kneeboard.campaigns.schemas import CampaignOut, PointOut

Verdict = Literal["better", "worse", "no detectable difference", "not enough data", "mixed"]


class Delta(BaseModel):
    """A campaign's difference from the first one."""

    abs: float
    pct: float | None


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
    basis: dict[str, str | None]


class MetricVerdict(BaseModel):
    """One metric over a comparison's matched points: the verdict and how many points went which way."""

    verdict: Verdict | None
    better: int
    worse: int
    same: int
    few: int
    basis: str


class PointVerdicts(BaseModel):
    """Per matched point and metric (Welch's t-test, Holm-corrected), and per metric overall."""

    confidence: float
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


class Comparison(BaseModel):
    """Two or more campaigns side by side."""

    selectors: list[str]
    campaigns: list[CampaignOut]
    points: dict[str, list[PointOut]]
    headline: list[Headline]
    point_verdicts: dict[str, PointVerdicts]
    differences: Differences
