"""The top-level analysis of one campaign's points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .conclusion import conclusion
from .knee import ceiling, find_knee, optimal_concurrency
from .capacity import capacity_at_slo
from .points import Point, aggregate, baseline_latency, finite, of_phase, sorted_by_load, sweep_points, load_of
from .stability import drift, oscillation
from .usl import fit_usl
from .zones import sla_zones


def json_safe(value: Any) -> Any:
    """A copy of value with numpy scalars made plain and NaN/±inf replaced by None."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if hasattr(value, "item") and not isinstance(value, (int, float)):
        value = value.item()  # numpy scalar
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return finite(value)
    return value


def analyse(
    points: Sequence[Point],
    samples: Sequence[dict] | None = None,
    *,
    k: float = 2.0,
    min_efficiency: float = 0.95,
    green_ms: float = 1.0,
    yellow_ms: float = 3.0,
    slo_ms: float | None = None,
    slo_metric: str | None = None,
    unit: str = "ops/s",
) -> dict:
    """Analyse one campaign (one variant): knee, ceiling, USL, zones, stability, conclusion.

    points: point dicts (only status "completed" ones count); samples: the interval
    samples of the stability point, if any. k, min_efficiency: the knee rule;
    green_ms, yellow_ms: the latency thresholds of the SLA zones; slo_ms: the latency target
    of the capacity at SLO (default yellow_ms), read on `slo_metric` (default: p99 when
    measured, else the mean); unit: the rate unit
    named in the conclusion. Points of several variants must be split first
    (:func:`kneeboard.analysis.points.split_by_variant`): mixing them raises ValueError.

    Returns {"knee", "ceiling", "optimal_concurrency", "usl", "zones", "capacity", "stability",
    "oscillation", "conclusion"} with None for what a missing phase cannot tell, and
    only JSON-safe values (no NaN or infinity).
    """
    points = list(points)
    variants = {p.get("variant") for p in points}
    if len(variants) > 1:
        raise ValueError(f"points of several variants {sorted(map(str, variants))}: analyse each alone")

    base = baseline_latency(points)
    knee = find_knee(points, k=k, min_efficiency=min_efficiency, baseline_ms=base)
    top = ceiling(points)
    usl = fit_usl(points)
    _, sweep = sweep_points(points)
    loads = [load_of(p) for p in sorted_by_load(aggregate(sweep))]

    stab_points = aggregate(of_phase(points, "stability"))
    if samples is not None or stab_points:
        d = drift(samples)
        stability = {key: d[key] for key in ("verdict", "rate_drift_pct", "latency_drift_pct")}
    else:
        stability = None

    result = {
        "knee": (
            {key: knee[key] for key in ("offered_rate", "achieved_rate", "latency_avg_ms")}
            if knee
            else None
        ),
        "ceiling": {"achieved_rate": top["achieved_rate"]} if top else None,
        "optimal_concurrency": optimal_concurrency(top["achieved_rate"] if top else None, base),
        "usl": (
            {
                key: usl[key]
                for key in ("sigma", "kappa", "lambda_", "peak_concurrency", "peak_rate", "r2", "amdahl_p", "note")
            }
            if usl
            else None
        ),
        "zones": sla_zones(points, green_ms=green_ms, yellow_ms=yellow_ms),
        "capacity": capacity_at_slo(points, limit_ms=slo_ms or yellow_ms, metric=slo_metric, min_efficiency=min_efficiency,
                                    unit=unit),
        "stability": stability,
        "oscillation": oscillation(points),
    }
    result = json_safe(result)
    result["conclusion"] = conclusion(
        result,
        baseline_ms=base,
        k=k,
        min_efficiency=min_efficiency,
        green_ms=green_ms,
        yellow_ms=yellow_ms,
        stability_point=max(stab_points, key=lambda p: p["n"]) if stab_points else None,
        max_load=loads[-1] if loads else None,
        unit=unit,
    )
    return result
