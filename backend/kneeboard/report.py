"""The report of one campaign's points: the analysis of its load and latency (analysis/, pure) with the server's
evidence (evidence/, read from its exporters); it sits above both so that neither imports the other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kneeboard.analysis.capacity import capacity_at_slo
from kneeboard.analysis.conclusion import conclude
from kneeboard.analysis.generator import server_judged
from kneeboard.analysis.knee import FLOOR_MS, ceiling, ceiling_statement, find_knee, knee_metric, requests_in_flight
from kneeboard.analysis.points import Point, aggregate, baseline_latency, finite, of_phase, sorted_by_load, sweep_points, load_of
from kneeboard.analysis.stability import drift, oscillation
from kneeboard.analysis.usl import fit_usl
from kneeboard.analysis.zones import sla_zones
from kneeboard.evidence.assess import assess


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
    knee_floor_ms: float = FLOOR_MS,
    green_ms: float = 1.0,
    yellow_ms: float = 3.0,
    slo_ms: float | None = None,
    slo_metric: str | None = None,
    slo_source: str = "default",
    unit: str = "ops/s",
    searched: list[dict] | None = None,
    work: tuple[str, float] = ("1,000 operations", 1000.0),
    host_shared: str | None = None,
    knee_latency: str | None = None,
) -> dict:
    """Analyse one campaign (one variant): knee, ceiling, USL, zones, stability, conclusion.

    points: point dicts (only status "completed" ones count); samples: the interval
    samples of the stability point, if any. k, min_efficiency, knee_floor_ms: the knee rule (knee.py);
    green_ms, yellow_ms: the latency thresholds of the SLA zones; slo_ms: the latency target
    of the capacity at SLO (default yellow_ms), read on `slo_metric` (default: p99 when
    measured, else the mean), `slo_source` where that target came from ("plan", "settings" or "default"); unit: the rate unit
    named in the conclusion; searched: the campaign's search capacities (searched.py), which the conclusion leads with;
    work: the unit the server's cost is given per (the tool's work_unit); host_shared: where the generator shared the
    server's host (environment.host_sharing), said beside host CPU figures; knee_latency: the latency the knee is read
    on (default: the SLO's metric when it is a tail percentile, else the mean). Points of several variants must be split first
    (:func:`kneeboard.analysis.points.split_by_variant`): mixing them raises ValueError.

    Returns {"knee", "ceiling", "requests_in_flight", "usl", "zones", "capacity", "stability",
    "oscillation", "generator_limited", "evidence", "headline", "sections", "conclusion"} with None for what a missing phase cannot tell, and
    only JSON-safe values (no NaN or infinity).
    """
    every = list(points)
    points, generator_limited = server_judged(every)  # the generator judged first: a load it did not send judges no server
    variants = {p.get("variant") for p in points}
    if len(variants) > 1:
        raise ValueError(f"points of several variants {sorted(map(str, variants))}: analyse each alone")

    base = baseline_latency(points)
    zones = sla_zones(points, green_ms=green_ms, yellow_ms=yellow_ms)
    red_from = next((z["from_rate"] for z in zones if z["zone"] == "red"), None)
    metric = knee_latency or knee_metric(slo_metric)
    knee = find_knee(points, k=k, min_efficiency=min_efficiency, floor_ms=knee_floor_ms,
                     baseline_ms=base if metric == "latency_avg_ms" else None, metric=metric, red_from=red_from)
    top = ceiling(points, min_efficiency=min_efficiency)
    usl = fit_usl(points, generator_limited=sum(p.get("phase") == "scalability" for p in generator_limited))
    _, sweep = sweep_points(points)
    loads = [load_of(p) for p in sorted_by_load(aggregate(sweep))]

    stab_points = aggregate(of_phase(points, "stability"))
    if samples is not None or stab_points:
        d = drift(samples)
        stability = {key: d.get(key) for key in ("verdict", "rate_drift_pct", "latency_drift_pct", "latency_metric", "drifted", "statement")}
    else:
        stability = None

    result = {
        "knee": (
            {key: knee[key] for key in ("offered_rate", "achieved_rate", "latency_avg_ms", "latency_ms", "metric", "threshold_ms",
                                        "concurrency", "load_axis", "between", "rule", "rule_text", "why")}
            if knee
            else None
        ),
        "ceiling": ({key: top[key] for key in ("achieved_rate", "bound", "kind", "offered_rate", "concurrency", "past")}
                    | {"statement": ceiling_statement(top, unit)}) if top else None,
        "requests_in_flight": _in_flight(top, knee, base),
        "usl": (
            {
                key: usl[key]
                for key in ("sigma", "kappa", "lambda_", "peak_concurrency", "peak_rate", "r2", "amdahl_p", "note")
            }
            if usl
            else None
        ),
        "zones": zones,
        "zones_metric": "latency_avg_ms",
        "capacity": _with_source(capacity_at_slo(points, limit_ms=slo_ms or yellow_ms, metric=slo_metric,
                                                 min_efficiency=min_efficiency, unit=unit), slo_source),
        "stability": stability,
        "oscillation": oscillation(points),
        "generator_limited": generator_limited,
        "evidence": assess(every, work=work, knee_rate=_knee_load(knee), host_shared=host_shared),
    }
    result = json_safe(result)
    result |= conclude(  # "headline", "sections" and "conclusion" (the sections as one paragraph)
        result,
        baseline_ms=base,
        min_efficiency=min_efficiency,
        green_ms=green_ms,
        yellow_ms=yellow_ms,
        stability_point=max(stab_points, key=lambda p: p["n"]) if stab_points else None,
        max_load=loads[-1] if loads else None,
        unit=unit,
        searched=searched,
        load_axis="offered" if any(finite(p.get("offered_rate")) is not None for p in sweep) else "achieved",
    )
    return result


def _knee_load(knee: dict | None) -> float | None:
    """The tested load the server is read at for the knee: the first one past its rule (the knee itself is interpolated)."""
    if not knee:
        return None
    between = knee.get("between") or [None, None]
    return finite(between[1]) if between[1] is not None else finite(knee["offered_rate"])


def _with_source(capacity: dict | None, source: str) -> dict | None:
    """The capacity at SLO with where its SLO came from ("plan", "settings" or "default")."""
    return {**capacity, "slo_source": source} if capacity else None


def _in_flight(top: dict | None, knee: dict | None, base: float | None) -> dict | None:
    """Little's law requests in flight (throughput × latency), never the tool's client count.

    "at_ceiling": the ceiling at the baseline latency, the fewest requests in flight that reach it without queueing;
    "at_knee": measured at the knee (its achieved rate × its mean latency).
    """
    at_ceiling = requests_in_flight(top["achieved_rate"] if top else None, base)
    at_knee = requests_in_flight(knee["achieved_rate"], knee["latency_avg_ms"]) if knee else None
    if at_ceiling is None and at_knee is None:
        return None
    return {"at_ceiling": at_ceiling, "baseline_ms": base, "at_knee": at_knee}
