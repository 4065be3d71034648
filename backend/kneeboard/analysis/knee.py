"""The knee of the latency curve, the throughput ceiling, and Little's-law concurrency."""

from __future__ import annotations

from collections.abc import Iterable

from .points import (
    Point,
    aggregate,
    baseline_latency,
    completed,
    efficiency,
    finite,
    load_of,
    sorted_by_load,
    sweep_points,
)


def find_knee(
    points: Iterable[Point],
    *,
    k: float = 2.0,
    min_efficiency: float = 0.95,
    baseline_ms: float | None = None,
) -> dict | None:
    """The highest load of the sweep before latency leaves its flat floor.

    Walks the sweep (saturation points, else scalability; repetitions averaged) from the
    lowest offered load up and keeps going while a point's latency is at most
    k × baseline latency and its efficiency (achieved/offered) is at least
    min_efficiency (closed-loop points without an offered rate are judged on latency
    only). The knee is the last point before the first one that fails; a noisy point
    that passes again higher up does not move it. The baseline is `baseline_ms` if
    given, else :func:`baseline_latency` of all points.

    Returns {"offered_rate", "achieved_rate", "latency_avg_ms", "concurrency"} or None
    (no sweep, no baseline, or the lowest load already fails).
    """
    if k <= 0:
        raise ValueError("k must be positive")
    pts = list(points)
    base = baseline_ms if baseline_ms is not None else baseline_latency(pts)
    _, sweep = sweep_points(pts)
    if base is None or not sweep:
        return None
    limit = k * base
    knee = None
    for p in sorted_by_load(aggregate(sweep)):
        latency = p["latency_avg_ms"]
        eff = efficiency(p)
        if latency is None or latency > limit or (eff is not None and eff < min_efficiency):
            break
        knee = p
    if knee is None:
        return None
    return {
        "offered_rate": load_of(knee),
        "achieved_rate": knee["achieved_rate"],
        "latency_avg_ms": knee["latency_avg_ms"],
        "concurrency": knee.get("concurrency"),
    }


def ceiling(points: Iterable[Point]) -> dict | None:
    """The saturation ceiling: the highest achieved rate of any completed point.

    Repetitions of one point are averaged first, so one lucky repeat does not set the
    ceiling. Returns {"achieved_rate", "phase", "concurrency", "offered_rate"} or None.
    """
    best = None
    for p in aggregate(completed(points)):
        rate = p["achieved_rate"]
        if rate is not None and (best is None or rate > best["achieved_rate"]):
            best = p
    if best is None:
        return None
    return {
        "achieved_rate": best["achieved_rate"],
        "phase": best.get("phase"),
        "concurrency": best.get("concurrency"),
        "offered_rate": finite(best.get("offered_rate")),
    }


def optimal_concurrency(ceiling_rate: float | None, baseline_ms: float | None) -> float | None:
    """Little's law L = X·W: the requests in flight needed to reach the ceiling.

    ceiling_rate (per second) × baseline latency (ms) / 1000. Beyond this concurrency
    extra requests only queue. None when either input is missing or not positive.
    """
    x = finite(ceiling_rate)
    w = finite(baseline_ms)
    if x is None or w is None or x <= 0 or w <= 0:
        return None
    return x * w / 1000.0
