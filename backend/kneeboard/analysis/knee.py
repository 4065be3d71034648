"""The knee of a load sweep, the throughput ceiling, and Little's-law requests in flight.

The knee is found by Kneedle (Satopää et al., 2011: the point of a curve farthest from its chord, both axes scaled
to [0, 1]; with fewer than 4 loads, the last load before the rule is broken) on two curves:

- throughput against offered load: the load where achieved stops following offered (the saturation onset);
- latency against throughput: where latency leaves its plateau, counted only when the latency rise before
  saturation is real: above both k × the baseline and the baseline plus an absolute floor (default 1 ms), so a
  sub-millisecond baseline that doubles is noise, not a knee.

The knee is the latency knee when there is one (it is never above the saturation onset), else the saturation
onset. docs/analysis.md says the rule and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

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

FLOOR_MS = 1.0
MIN_KNEEDLE_POINTS = 4


def _kneedle(xs: Sequence[float], ys: Sequence[float], curve: str) -> float | None:
    """Kneedle's knee x of an increasing curve (`concave` or `convex`): the maximum of its difference curve.

    Both axes are scaled to [0, 1]; the difference curve is y − x for a concave curve (x − y for a convex one), the
    distance of each point from the chord. Its global maximum is taken, not Kneedle's first local maximum past a
    threshold: measured sweeps are noisy, and a small wiggle on the plateau would otherwise be the knee.
    None with fewer than 4 distinct loads, a flat curve, or a curve that never bends away from its chord.
    """
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if len(set(xs)) < MIN_KNEEDLE_POINTS or np.ptp(y) == 0:
        return None
    x_n, y_n = (x - x.min()) / np.ptp(x), (y - y.min()) / np.ptp(y)
    difference = y_n - x_n if curve == "concave" else x_n - y_n
    best = int(np.argmax(difference))
    return float(x[best]) if difference[best] > 0 else None


def _at(points: Sequence[Point], key, x: float | None) -> Point | None:
    return next((p for p in points if key(p) == x), None) if x is not None else None


def saturation_onset(points: Iterable[Point], *, min_efficiency: float = 0.95) -> Point | None:
    """The sweep point where throughput stops following the offered load (Kneedle on achieved against offered).

    Open-loop sweeps only (every point has an offered rate), and only when the sweep saturated: some point
    achieved less than `min_efficiency` of its offered rate. Repetitions are averaged. None otherwise.
    """
    _, sweep = sweep_points(points)
    pts = [p for p in sorted_by_load(aggregate(sweep)) if finite(p.get("offered_rate")) and p["achieved_rate"] is not None]
    if not pts or not any((efficiency(p) or 1.0) < min_efficiency for p in pts):
        return None
    found = _at(pts, lambda p: p["offered_rate"], _kneedle([p["offered_rate"] for p in pts], [p["achieved_rate"] for p in pts], "concave"))
    if found is None:  # too few points for Kneedle: the last load that kept up
        kept = [p for p in pts if (efficiency(p) or 0.0) >= min_efficiency]
        found = kept[-1] if kept else pts[0]
    return found


def find_knee(
    points: Iterable[Point],
    *,
    k: float = 2.0,
    min_efficiency: float = 0.95,
    floor_ms: float = FLOOR_MS,
    baseline_ms: float | None = None,
) -> dict | None:
    """The knee of the sweep (saturation points, else scalability; repetitions averaged): see the module's rule.

    The latency knee counts only when some point up to the saturation onset has a latency above
    max(k × baseline, baseline + floor_ms); the baseline is `baseline_ms` if given, else
    :func:`baseline_latency`. Returns {"offered_rate" (the load axis: achieved for closed-loop sweeps),
    "achieved_rate", "latency_avg_ms", "concurrency", "load_axis" ("offered" or "achieved"), "rule", "rule_text", "why"} with rule "latency" or "saturation", or None: the sweep neither left its latency plateau nor
    saturated (the knee lies beyond it).
    """
    if k <= 0 or floor_ms < 0:
        raise ValueError("k must be positive and floor_ms not negative")
    pts = list(points)
    base = baseline_ms if baseline_ms is not None else baseline_latency(pts)
    _, sweep = sweep_points(pts)
    curve = sorted_by_load(aggregate(sweep))
    onset = saturation_onset(pts, min_efficiency=min_efficiency)
    before = [p for p in curve if onset is None or load_of(p) <= load_of(onset)]
    rise = max(k * base, base + floor_ms) if base is not None else None
    knee, rule = None, None
    rose = rise is not None and any((p["latency_avg_ms"] or 0.0) > rise for p in before)
    if rose:
        measured = sorted((p for p in curve if p["achieved_rate"] is not None and p["latency_avg_ms"] is not None),
                          key=lambda p: p["achieved_rate"])
        knee = _at(measured, lambda p: p["achieved_rate"],
                   _kneedle([p["achieved_rate"] for p in measured], [p["latency_avg_ms"] for p in measured], "convex"))
        if len(measured) < MIN_KNEEDLE_POINTS:  # too few for Kneedle: the last load before latency passed the rise
            below = [p for p in curve[: next(i for i, p in enumerate(curve) if (p["latency_avg_ms"] or 0.0) > rise)]]
            knee = below[-1] if below else None
        rule = "latency"
        if knee is not None and onset is not None and load_of(knee) > load_of(onset):
            knee = None
    if knee is None and onset is not None:
        knee, rule = onset, "saturation"
    if knee is None:
        return None
    floor = (f"{rise:.3g} ms (the larger of {k:g}× the {base:.3g} ms baseline and the baseline + {floor_ms:g} ms)"
             if rise is not None else None)
    if rule == "latency":
        text, why = "Kneedle on mean latency against throughput", f"mean latency rose above {floor} before saturation"
    else:
        text = "Kneedle on throughput against offered load: where the achieved rate stops following the offered"
        why = (f"mean latency rose above {floor} before saturation, with no bend of its own before it" if rose
               else f"mean latency stayed within {floor} until then" if floor else "no latency was measured")
    return {
        "offered_rate": load_of(knee),
        "achieved_rate": knee["achieved_rate"],
        "latency_avg_ms": knee["latency_avg_ms"],
        "concurrency": knee.get("concurrency"),
        "load_axis": "offered" if finite(knee.get("offered_rate")) is not None else "achieved",
        "rule": rule,
        "rule_text": text,
        "why": why,
    }


def ceiling(points: Iterable[Point], *, min_efficiency: float = 0.95) -> dict | None:
    """The saturation ceiling: the highest achieved rate of any completed point, repetitions averaged.

    "bound" is True when that point still achieved at least `min_efficiency` of its offered rate: the system kept
    up, so the ceiling is a lower bound ("≥"), not a measured limit. Returns {"achieved_rate", "phase",
    "concurrency", "offered_rate", "bound"} or None.
    """
    best = None
    for p in aggregate(completed(points)):
        rate = p["achieved_rate"]
        if rate is not None and (best is None or rate > best["achieved_rate"]):
            best = p
    if best is None:
        return None
    eff = efficiency(best)
    return {
        "achieved_rate": best["achieved_rate"],
        "phase": best.get("phase"),
        "concurrency": best.get("concurrency"),
        "offered_rate": finite(best.get("offered_rate")),
        "bound": eff is not None and eff >= min_efficiency,
    }


def requests_in_flight(rate: float | None, latency_ms: float | None) -> float | None:
    """Little's law L = X·W: requests in flight at a rate (per second) and a mean latency (ms); None when unknown."""
    x = finite(rate)
    w = finite(latency_ms)
    if x is None or w is None or x <= 0 or w <= 0:
        return None
    return x * w / 1000.0
