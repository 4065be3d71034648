"""SLA zones: which offered-load range keeps latency under each user-set threshold."""

from __future__ import annotations

from collections.abc import Iterable

from .points import Point, aggregate, load_of, sorted_by_load, sweep_points

ZONE_NAMES = ("green", "yellow", "red")


def _crossing(loads: list[float], latency: list[float], threshold: float) -> float | None:
    """The load at which latency first reaches threshold, interpolated; None if it never does."""
    for i, lat in enumerate(latency):
        if lat >= threshold:
            if i == 0:
                return loads[0]
            x0, x1, y0, y1 = loads[i - 1], loads[i], latency[i - 1], lat
            if y1 == y0:
                return x1
            return x0 + (threshold - y0) * (x1 - x0) / (y1 - y0)
    return None


def sla_zones(
    points: Iterable[Point], *, green_ms: float = 1.0, yellow_ms: float = 3.0
) -> list[dict]:
    """Offered-load ranges of the latency zones green (< green_ms), yellow (< yellow_ms), red.

    Reads the sweep (saturation points, else scalability; repetitions averaged; load =
    offered rate, or achieved rate for closed-loop points). A zone ends where latency
    *first* reaches its threshold, so a noisy dip higher up does not reopen it; the
    boundary is linearly interpolated between the two points around that crossing. Ranges stay within the
    measured loads: the first zone starts at the lowest measured load, the last ends at
    the highest. Zones the sweep never reached are left out.

    Returns [{"zone", "from_rate", "to_rate"}, …] in green, yellow, red order.
    """
    if not (0 < green_ms < yellow_ms):
        raise ValueError("thresholds must satisfy 0 < green_ms < yellow_ms")
    _, sweep = sweep_points(points)
    pts = [p for p in sorted_by_load(aggregate(sweep)) if p["latency_avg_ms"] is not None]
    if not pts:
        return []
    loads = [load_of(p) for p in pts]
    latency = [p["latency_avg_ms"] for p in pts]
    lo, hi = loads[0], loads[-1]
    edges = [lo]
    for threshold in (green_ms, yellow_ms):
        c = _crossing(loads, latency, threshold)
        edges.append(hi if c is None else c)
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
