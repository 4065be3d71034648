"""SLA zones: which offered-load range keeps latency under each user-set threshold."""

from __future__ import annotations

from collections.abc import Iterable

from .points import Point, first_sustained_crossing, levels, sweep_points

ZONE_NAMES = ("green", "yellow", "red")


def sla_zones(
    points: Iterable[Point], *, green_ms: float = 1.0, yellow_ms: float = 3.0
) -> list[dict]:
    """Offered-load ranges of the latency zones green (< green_ms), yellow (< yellow_ms), red.

    Reads the sweep (saturation points, else scalability; the median of each load's
    repetitions; load = offered rate, or achieved rate for closed-loop points). A zone ends
    at latency's *first sustained crossing* of its threshold (points.first_sustained_crossing:
    one noisy load over the line whose next load is under it does not end it, and a dip
    higher up does not reopen it); the boundary is linearly interpolated between the two
    points around that crossing. Ranges stay within the
    measured loads: the first zone starts at the lowest measured load, the last ends at
    the highest. Zones the sweep never reached are left out.

    Returns [{"zone", "from_rate", "to_rate"}, …] in green, yellow, red order.
    """
    if not (0 < green_ms < yellow_ms):
        raise ValueError("thresholds must satisfy 0 < green_ms < yellow_ms")
    _, sweep = sweep_points(points)
    pts = [r for r in levels(sweep, ("latency_avg_ms",)) if r["latency_avg_ms"] is not None]
    if not pts:
        return []
    loads = [r["load"] for r in pts]
    latency = [r["latency_avg_ms"] for r in pts]
    lo, hi = loads[0], loads[-1]
    edges = [lo]
    for threshold in (green_ms, yellow_ms):
        c = first_sustained_crossing(loads, latency, threshold)
        edges.append(hi if c is None else max(c[2], edges[-1]))
    edges.append(hi)
    zones = []
    for name, start, end in zip(ZONE_NAMES, edges[:-1], edges[1:]):
        if end > start:
            zones.append({"zone": name, "from_rate": start, "to_rate": end})
    if not zones:  # a single measured load: it sits in one zone
        lat = latency[0]
        name = "green" if lat < green_ms else "yellow" if lat < yellow_ms else "red"
        zones.append({"zone": name, "from_rate": lo, "to_rate": hi})
    return zones
