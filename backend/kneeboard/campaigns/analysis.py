"""Feeding a stored campaign to the pure analysis functions, per variant."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import select
from sqlalchemy.orm import object_session

from kneeboard.report import analyse
from kneeboard.analysis.capacity import SLO_METRICS
from kneeboard.analysis.knee import FLOOR_MS
from kneeboard.analysis.searched import search_capacities
from kneeboard.analysis.stability import INTERVAL_LATENCY
from kneeboard.campaigns.models import Campaign, Point, SampleRow
from kneeboard.environment import host_sharing
from kneeboard.errors import invalid
from kneeboard.evidence.assess import figures
from kneeboard.search.report import search_report
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.registry import adapter
from kneeboard.states import PointStatus



ANALYSIS_VERSION = 5  # stored analyses of an older version are computed again when read (campaigns.service)


class Thresholds(BaseModel):
    """The user's analysis settings: the knee rule and the SLA zone latencies."""

    model_config = ConfigDict(extra="forbid")

    k: float = Field(default=2.0, gt=1, le=100, description="knee: a latency rise counts above k × baseline (and the floor)")
    min_efficiency: float = Field(default=0.95, gt=0, le=1, description="knee and capacity: achieved/offered at least this")
    knee_floor_ms: float = Field(default=FLOOR_MS, ge=0, le=60_000,
                                 description="knee: a latency rise counts above the baseline plus this (and k × baseline)")
    green_ms: float = Field(default=1.0, gt=0, le=60_000)
    yellow_ms: float = Field(default=3.0, gt=0, le=60_000)
    slo_ms: float | None = Field(default=None, gt=0, le=60_000,
                                 description="capacity at SLO: the latency target (default: the plan's slo)")
    slo_metric: Literal[SLO_METRICS] | None = Field(default=None, description="capacity at SLO: the latency the target is read on, one the "
                                                    "campaign's tool measures (default: p99 when measured, else the mean)")

    @model_validator(mode="after")
    def _zones_ordered(self) -> Thresholds:
        if not self.green_ms < self.yellow_ms:
            raise ValueError("green_ms must be below yellow_ms (green < yellow < red)")
        return self


def point_dict(point: Point) -> dict[str, Any]:
    """A stored point in the analysis package's shape, with its monitors' summaries and the server evidence's figures."""
    metrics = point.metrics or {}
    monitors = (point.extra or {}).get("monitors") or {}
    found = {**metrics, "monitors": monitors, "achieved_rate": metrics.get("achieved_rate")}
    return {
        **metrics,
        "id": point.id,
        "monitors": monitors,
        **(figures(found, _work_unit(point.campaign.tool)) if monitors else {}),
        "unsteady": bool(((point.extra or {}).get("steady") or {}).get("unsteady")),
        "generator_limited": bool(((point.extra or {}).get("generator") or {}).get("limited")), "generator": (point.extra or {}).get("generator"),
        "harness_cpu": (point.extra or {}).get("harness_cpu"),
        "phase": point.phase,
        "concurrency": point.concurrency,
        "offered_rate": point.offered_rate,
        "achieved_rate": metrics.get("achieved_rate"),
        "latency_avg_ms": metrics.get("latency_avg_ms"),
        "latency_stddev_ms": metrics.get("latency_stddev_ms"),
        "loss_pct": metrics.get("loss_pct"),
        "repeat": point.repeat,
        "status": point.status,
        "variant": point.variant,
        **({"rate_from": text} if (text := getattr(point, "rate_from", None)) else {}),
        **({"rate_found": {"of": found["of"], "phase": found.get("phase"), "value": found["found"]}}
           if (found := (point.extra or {}).get("rate_from") or {}).get("found") is not None else {}),
    }


def _stability_samples(points: list[Point]) -> list[dict] | None:
    """The long point's interval samples: those stored as it ran, else (an imported point stores none) read again from
    its stored output by its tool's own interval reader, as the worker read them live."""
    stable = [p for p in points if p.phase == "stability" and p.status == PointStatus.COMPLETED]
    if not stable:
        return None
    point, session = stable[-1], object_session(stable[-1])
    rows = [] if session is None or point.id is None else list(session.scalars(
        select(SampleRow).where(SampleRow.point_id == point.id, SampleRow.series == "point").order_by(SampleRow.t)))
    values = [(r.t, r.values) for r in rows] or _samples_from_output(point)
    return [{"t": t, "achieved_rate": v.get("achieved_rate"), **{k: v.get(k) for k in INTERVAL_LATENCY}} for t, v in values]


def _samples_from_output(point: Point) -> list[tuple[float, dict]]:
    """(t, values) of the point's stored output read line by line by its tool's interval reader; [] without either."""
    try:
        read = adapter(point.campaign.tool).interval_reader(0.0)
    except KeyError:
        return []
    samples = (read(line) for line in (point.stdout or "").splitlines())
    return [(s.t, s.values) for s in samples if s is not None and s.series == "point"]


def _rate_unit(tool: str) -> str:
    try:
        return adapter(tool).rate_unit
    except KeyError:
        return "ops/s"


def _work_unit(tool: str) -> tuple[str, float]:
    try:
        return adapter(tool).work_unit
    except KeyError:
        return ToolAdapter.work_unit


def _whole_seconds(tool: str) -> bool:
    try:
        return adapter(tool).whole_seconds
    except KeyError:
        return False


def _check_slo_metric(settings: Thresholds, tool: str) -> None:
    """A 422 naming slo_metric when the campaign's tool does not measure that latency."""
    if settings.slo_metric is None:
        return
    try:
        declared = [m.name for m in adapter(tool).all_metrics() if m.name in SLO_METRICS]
    except KeyError:
        declared = []
    if settings.slo_metric not in declared:
        choice = f"choose one of {', '.join(declared)}" if declared else "it measures no latency"
        raise invalid(("slo_metric",), f"{tool} does not measure {settings.slo_metric}; {choice}")


def _slo(settings: Thresholds, plan: dict) -> dict:
    """The latency target of the capacity: the analysis settings' when given, else the plan's, else the default."""
    if settings.slo_ms is not None or settings.slo_metric is not None:
        chosen = plan.get("slo") or {}
        return {"slo_ms": settings.slo_ms or chosen.get("limit_ms") or settings.yellow_ms,
                "slo_metric": settings.slo_metric or chosen.get("metric"), "slo_source": "settings"}
    if plan.get("slo"):
        return {"slo_ms": plan["slo"]["limit_ms"], "slo_metric": plan["slo"].get("metric"), "slo_source": "plan"}
    return {"slo_ms": settings.yellow_ms, "slo_metric": None, "slo_source": "default"}


def analyse_campaign(campaign: Campaign, thresholds: Thresholds | None = None) -> dict[str, Any] | None:
    """The analysis of a campaign's completed points (each variant alone); None when nothing completed.

    A search's capacities (per criterion, over its repetitions) are computed here once, and the analysis of each
    variant leads its conclusion with its own."""
    settings = thresholds or Thresholds()
    _check_slo_metric(settings, campaign.tool)
    groups: dict[str | None, list[Point]] = {}
    for point in campaign.points:
        groups.setdefault(point.variant, []).append(point)
    if not any(p.status == PointStatus.COMPLETED for p in campaign.points):
        return None
    unit = _rate_unit(campaign.tool)
    searches = search_report(campaign.plan["phases"], campaign.points, unit, _whole_seconds(campaign.tool), float(campaign.plan.get("pause_s", 0)))
    options = {**settings.model_dump(), **_slo(settings, campaign.plan)}
    shared = (host_sharing(campaign.environment or {}) or {}).get("shares_host")
    by_variant = {}
    for variant, points in groups.items():
        searched = search_capacities(searches, unit, variant=variant, first_variant=False)
        by_variant[variant] = analyse([point_dict(p) for p in points], _stability_samples(points), unit=unit,
                                      searched=searched, work=_work_unit(campaign.tool), host_shared=shared, **options)
        if searched:
            by_variant[variant]["searched"] = searched
    first = next(iter(by_variant.values()))
    result = {**first, "thresholds": settings.model_dump(), "version": ANALYSIS_VERSION, "unit": unit}
    if searches:
        result["search"] = searches
    if len(by_variant) > 1:
        result["variants"] = {str(label): analysis for label, analysis in by_variant.items()}
    return result


def found_by(campaign: Campaign, points: list[Point]) -> tuple[dict, list[dict], str]:
    """What one phase run of a campaign found, by the report's own rules and the campaign's settings: (its analysis —
    knee, ceiling —, its searches, the rate unit). What a derived load is resolved from."""
    unit = _rate_unit(campaign.tool)
    searches = search_report(campaign.plan["phases"], points, unit, _whole_seconds(campaign.tool), float(campaign.plan.get("pause_s", 0)))
    done = [point_dict(p) for p in points if p.status == PointStatus.COMPLETED]
    settings = Thresholds()
    found = analyse(done, None, unit=unit, work=_work_unit(campaign.tool), **{**settings.model_dump(), **_slo(settings, campaign.plan)}) if done else {}
    return found, searches, unit
