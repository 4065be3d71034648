"""Point helpers shared by the analyses: selection, derived metrics, repeat grouping.

A *point* is a dict with the keys documented in :mod:`kneeboard.analysis` (phase,
concurrency, offered_rate, achieved_rate, latency_avg_ms, latency_stddev_ms, loss_pct,
repeat, status, variant). Missing keys read as None. Nothing here mutates its input.
"""

from __future__ import annotations

from kneeboard.states import PointStatus
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

Point = dict[str, Any]

PHASES = ("baseline", "scalability", "saturation", "stability", "custom")


def finite(x: Any) -> float | None:
    """Return x as a plain float, or None when it is None, NaN, infinite or not a number."""
    if x is None or isinstance(x, bool):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def completed(points: Iterable[Point]) -> list[Point]:
    """The points whose status is "completed" (failed, cancelled… points carry no result)."""
    return [p for p in points if p.get("status") == PointStatus.COMPLETED]


def of_phase(points: Iterable[Point], phase: str) -> list[Point]:
    """Completed points of one phase."""
    return [p for p in completed(points) if p.get("phase") == phase]


def sweep_points(points: Iterable[Point]) -> tuple[str | None, list[Point]]:
    """The load sweep to read a knee or zones from: saturation points, else scalability.

    Returns (phase name, points); (None, []) when neither phase has a completed point.
    """
    pts = list(points)
    for phase in ("saturation", "scalability"):
        sel = of_phase(pts, phase)
        if sel:
            return phase, sel
    return None, []


def efficiency(point: Point) -> float | None:
    """achieved_rate / offered_rate, or None when either is missing or offered is zero."""
    achieved = finite(point.get("achieved_rate"))
    offered = finite(point.get("offered_rate"))
    if achieved is None or not offered:
        return None
    return achieved / offered


def inflight(point: Point) -> float | None:
    """Little's law L = X * W: achieved_rate * latency_avg_ms / 1000 requests in flight."""
    achieved = finite(point.get("achieved_rate"))
    latency_ms = finite(point.get("latency_avg_ms"))
    if achieved is None or latency_ms is None:
        return None
    return achieved * latency_ms / 1000.0


def derived(points: Iterable[Point]) -> list[Point]:
    """Copies of the points with "efficiency" and "inflight" added (None where unknown)."""
    out = []
    for p in points:
        q = dict(p)
        q["efficiency"] = efficiency(p)
        q["inflight"] = inflight(p)
        out.append(q)
    return out


def load_of(point: Point) -> float | None:
    """The load axis of a point: offered_rate, or achieved_rate for closed-loop tools."""
    offered = finite(point.get("offered_rate"))
    return offered if offered is not None else finite(point.get("achieved_rate"))


def group_key(point: Point) -> tuple:
    """Points with the same key are repetitions of one another."""
    return (
        point.get("variant"),
        point.get("phase"),
        point.get("concurrency"),
        finite(point.get("offered_rate")),
    )


def group_repeats(points: Iterable[Point]) -> list[list[Point]]:
    """Completed points grouped by (variant, phase, concurrency, offered_rate), input order kept."""
    groups: dict[tuple, list[Point]] = defaultdict(list)
    for p in completed(points):
        groups[group_key(p)].append(p)
    return list(groups.values())


def _mean(values: Sequence[float | None]) -> float | None:
    vals = [v for v in (finite(x) for x in values) if v is not None]
    return sum(vals) / len(vals) if vals else None


def aggregate(points: Iterable[Point]) -> list[Point]:
    """One point per repeat group: the mean of each metric over the group's repetitions.

    Each returned point also has "n" (repetitions) and "achieved_values" (the raw
    achieved rates, for noise estimates). Order follows the first appearance of a group.
    """
    out = []
    for group in group_repeats(points):
        first = group[0]
        agg: Point = {
            "phase": first.get("phase"),
            "variant": first.get("variant"),
            "concurrency": first.get("concurrency"),
            "offered_rate": finite(first.get("offered_rate")),
            "status": PointStatus.COMPLETED,
            "repeat": 0,
            "n": len(group),
            **({"rate_from": first["rate_from"]} if first.get("rate_from") else {}),  # a derived load: where its rate came from
            **({"rate_found": first["rate_found"]} if first.get("rate_found") else {}),  # …and the figure it was resolved from
        }
        for metric in ("achieved_rate", "latency_avg_ms", "latency_stddev_ms", "loss_pct"):
            agg[metric] = _mean([p.get(metric) for p in group])
        agg["achieved_values"] = [
            v for v in (finite(p.get("achieved_rate")) for p in group) if v is not None
        ]
        out.append(agg)
    return out


def sorted_by_load(points: Iterable[Point]) -> list[Point]:
    """Points that have a load (see load_of), sorted by it, lowest first."""
    pts = [p for p in points if load_of(p) is not None]
    return sorted(pts, key=lambda p: (load_of(p), p.get("concurrency") or 0))


def baseline_latency(points: Iterable[Point], *, min_efficiency: float = 0.95) -> float | None:
    """R0, the no-load latency in ms: the lowest latency among unsaturated points.

    Repetitions are averaged first; a point is unsaturated when it achieved at least
    `min_efficiency` of its offered rate (closed-loop points, with no offered rate, all
    count). Taking the lowest-offered-load point instead biases R0 upwards whenever
    that point is not the fastest (seed 000: 0.668 ms at 500 qps against 0.421 ms at
    one client), which inflates Little's-law concurrency. None when no point qualifies.
    """
    pts = [p for p in aggregate(completed(points)) if finite(p.get("latency_avg_ms")) is not None]
    calm = [p for p in pts if (efficiency(p) is None or efficiency(p) >= min_efficiency)]
    return min((p["latency_avg_ms"] for p in calm), default=None)


def split_by_variant(points: Iterable[Point]) -> dict[Any, list[Point]]:
    """Points split by their "variant" value (None included), for one analysis per variant."""
    out: dict[Any, list[Point]] = defaultdict(list)
    for p in points:
        out[p.get("variant")].append(p)
    return dict(out)


def low_load_points(points: Iterable[Point], metric: str) -> list[Point]:
    """The points a figure "at low load" reads: the baseline phase's, else the lowest sweep level's that measured it."""
    pts = list(points)
    if _mean([p.get(metric) for p in of_phase(pts, "baseline")]) is not None:
        return of_phase(pts, "baseline")
    _, sweep = sweep_points(pts)
    levels = sorted((g for g in group_repeats(sweep) if load_of(g[0]) is not None), key=lambda g: load_of(g[0]))
    return next((g for g in levels if _mean([p.get(metric) for p in g]) is not None), [])


def low_load(points: Iterable[Point], metric: str) -> float | None:
    """A metric at the lightest load: the mean over :func:`low_load_points` (repetitions averaged)."""
    return _mean([p.get(metric) for p in low_load_points(points, metric)])


def _median(values: Sequence[float | None]) -> float | None:
    vals = sorted(v for v in (finite(x) for x in values) if v is not None)
    if not vals:
        return None
    mid = len(vals) // 2
    return vals[mid] if len(vals) % 2 else (vals[mid - 1] + vals[mid]) / 2.0


def levels(points: Iterable[Point], metrics: Sequence[str]) -> list[Point]:
    """One row per load of a sweep, lowest first: each metric's *median* over the load's repetitions.

    A median, not a mean: one repetition that stalled must not move a reading that the others agree on. Each row has
    "load" (see :func:`load_of`), "offered_rate", "concurrency", "n" (repetitions), the metrics' medians, and
    "efficiency": the median of the repetitions' achieved/offered (None for closed-loop points)."""
    rows = []
    for group in group_repeats(points):
        load = load_of({"offered_rate": group[0].get("offered_rate"), "achieved_rate": _median([p.get("achieved_rate") for p in group])})
        if load is None:
            continue
        row: Point = {"load": load, "offered_rate": finite(group[0].get("offered_rate")), "concurrency": group[0].get("concurrency"),
                      "phase": group[0].get("phase"), "n": len(group), "efficiency": _median([efficiency(p) for p in group])}
        for metric in metrics:
            row[metric] = _median([p.get(metric) for p in group])
        rows.append(row)
    return sorted(rows, key=lambda r: (r["load"], r["concurrency"] or 0))


def first_sustained_crossing(xs: Sequence[float], ys: Sequence[float | None], threshold: float, *,
                             above: bool = True) -> tuple[float | None, float, float] | None:
    """Where a curve first crosses a threshold and stays across: (x before it, x of the first point past it, interpolated x).

    A point past the threshold counts only when the next point with a value is past it too (or it is the last): one
    noisy point over the line followed by one under it is not a crossing. `above`: crossing upwards (y > threshold),
    else downwards (y < threshold). The x is linearly interpolated between the crossing point and the one before it
    (the crossing point's own x when it is the first, and None before it). None when the curve never crosses for good."""
    pts = [(x, y) for x, y in zip(xs, ys) if finite(y) is not None and finite(x) is not None]

    def past(y: float) -> bool:
        return y > threshold if above else y < threshold

    for i, (x, y) in enumerate(pts):
        if past(y) and (i + 1 == len(pts) or past(pts[i + 1][1])):
            if i == 0:
                return None, x, x
            x0, y0 = pts[i - 1]
            f = (threshold - y0) / (y - y0) if y != y0 else 1.0
            return x0, x, x0 + min(max(f, 0.0), 1.0) * (x - x0)
    return None
