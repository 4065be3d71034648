"""The knee of a load sweep, the throughput ceiling, and Little's-law requests in flight.

The knee is where the sweep first leaves the region the system handles well, by one rule read on the medians of each
load's repetitions (so one stalled repetition, or one noisy load, moves nothing):

- latency: the knee's latency metric (the mean by default; a tail percentile when the SLO is on one) rises above
  max(k × its baseline, its baseline + an absolute floor, default 1 ms), so a sub-millisecond baseline that doubles
  is noise, not a knee;
- saturation (open-loop sweeps): the efficiency, achieved/offered, falls below `min_efficiency`;

whichever comes first, at its *first sustained crossing* (a load past the line whose next load is past it too),
interpolated between the last load within the rule and the first past it. The knee is therefore at or below the first
load that broke the rule, and never past the start of the red zone the same report draws (`red_from`). A sweep that
crossed neither has no knee: "no knee found" is an answer. docs/analysis.md says the rule and why.

The ceiling is the highest achieved rate; it is a lower bound only when nothing tested above it achieved less than it
(within the points' own spread) and it was still rising; else it is the measured ceiling, said with the loads past it
and what they achieved (:func:`ceiling`, :func:`ceiling_statement`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from .points import (
    Point,
    aggregate,
    baseline_latency,
    completed,
    efficiency,
    finite,
    first_sustained_crossing,
    levels,
    load_of,
    of_phase,
    sorted_by_load,
    sweep_points,
)

FLOOR_MS = 1.0
MIN_KNEEDLE_POINTS = 4
KNEE_METRICS = ("latency_avg_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms")
METRIC_WORDS = {"latency_avg_ms": "mean latency", "latency_p50_ms": "p50 latency", "latency_p90_ms": "p90 latency",
                "latency_p99_ms": "p99 latency", "latency_p999_ms": "p99.9 latency"}
RISING_GAIN = 0.5  # a top load that still gained at least this share of its extra offered load was still rising
SINGLE_RUN_TOL = 0.02  # without repetitions, a drop under this share of the ceiling is within a run's own noise
Z = 1.96
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


def knee_metric(slo_metric: str | None) -> str:
    """The latency the knee is read on: the SLO's when it is a tail percentile, else the mean."""
    return slo_metric if slo_metric in KNEE_METRICS and slo_metric not in ("latency_avg_ms", "latency_p50_ms") else "latency_avg_ms"


def metric_baseline(points: Iterable[Point], metric: str, *, min_efficiency: float = 0.95) -> float | None:
    """The no-load value of a latency metric: the lowest median over the loads (and the baseline phase) that kept up."""
    if metric == "latency_avg_ms":
        return baseline_latency(points, min_efficiency=min_efficiency)
    pts = list(points)
    rows = [r for phase in ("baseline", "scalability", "saturation") for r in levels(of_phase(pts, phase), (metric,))]
    calm = [r[metric] for r in rows if r[metric] is not None and (r["efficiency"] is None or r["efficiency"] >= min_efficiency)]
    return min(calm, default=None)


def _interpolate(rows: Sequence[Point], load: float, key: str) -> float | None:
    """A row value at `load`, linear between the two tested loads around it."""
    known = [(r["load"], r[key]) for r in rows if r.get(key) is not None]
    if not known:
        return None
    xs, ys = zip(*known)
    return float(np.interp(load, xs, ys))


def find_knee(
    points: Iterable[Point],
    *,
    k: float = 2.0,
    min_efficiency: float = 0.95,
    floor_ms: float = FLOOR_MS,
    baseline_ms: float | None = None,
    metric: str = "latency_avg_ms",
    red_from: float | None = None,
) -> dict | None:
    """The knee of the sweep (saturation points, else scalability), by the module's rule; None when no knee was found.

    `metric` is the latency it is read on (KNEE_METRICS); the baseline is `baseline_ms` if given, else
    :func:`metric_baseline`; `red_from` the load where the report's red zone starts (the knee is never past it).
    Returns {"offered_rate" (the load axis: achieved for closed-loop sweeps), "achieved_rate", "latency_avg_ms",
    "latency_ms" (the metric's value there), "metric", "threshold_ms", "concurrency", "load_axis" ("offered" or
    "achieved"), "between" ([last load within the rule, first past it]), "rule" ("latency" or "saturation"),
    "rule_text", "why"}.
    """
    if k <= 0 or floor_ms < 0:
        raise ValueError("k must be positive and floor_ms not negative")
    if metric not in KNEE_METRICS:
        raise ValueError(f"the knee is read on one of {', '.join(KNEE_METRICS)}, not {metric}")
    pts = list(points)
    _, sweep = sweep_points(pts)
    rows = levels(sweep, tuple(dict.fromkeys(("achieved_rate", "latency_avg_ms", metric))))
    if not rows:
        return None
    base = baseline_ms if baseline_ms is not None else metric_baseline(pts, metric, min_efficiency=min_efficiency)
    threshold = max(k * base, base + floor_ms) if base is not None else None
    loads = [r["load"] for r in rows]
    words = METRIC_WORDS[metric]
    found = []  # (load, rule, why, (before, past))
    if threshold is not None and (c := first_sustained_crossing(loads, [r[metric] for r in rows], threshold)) is not None:
        found.append((c[2], "latency", f"{words} first rose above {threshold:.3g} ms (the larger of {k:g}× the {base:.3g} ms "
                      f"baseline and the baseline + {floor_ms:g} ms) and stayed above", c[:2]))
    open_loop = all(r["offered_rate"] is not None for r in rows)
    if open_loop and (c := first_sustained_crossing(loads, [r["efficiency"] for r in rows], min_efficiency, above=False)):
        found.append((c[2], "saturation", f"the achieved rate first fell under {min_efficiency * 100:g} % of the offered and stayed under",
                      c[:2]))
    if red_from is not None:  # the red zone's own first sustained crossing: the knee is never inside it
        before = max((x for x in loads if x < red_from), default=None)
        past = min((x for x in loads if x >= red_from), default=red_from)
        found.append((red_from, "latency", "mean latency entered the report's red zone and stayed in it", (before, past)))
    if not found:
        return None
    load, rule, why, (before, past) = min(found, key=lambda f: f[0])
    reps = max(r["n"] for r in rows)
    read = f"; the medians of {reps} repetitions per load were read" if reps > 1 else ""
    if before is None:
        why += f" already at the lowest load tested: the knee lies at or below it{read}"
    else:
        why += f" between {before:,.0f} and {past:,.0f} {'offered' if open_loop else 'achieved'} (interpolated){read}"
    lower = next((r for r in reversed(rows) if r["load"] <= load), rows[0])
    text = (f"the first sustained crossing of the latency rule ({words}) or of {min_efficiency * 100:g} % efficiency, whichever "
            "comes first" if open_loop else f"the first sustained crossing of the latency rule ({words})")
    return {
        "offered_rate": load,
        "achieved_rate": _interpolate(rows, load, "achieved_rate"),
        "latency_avg_ms": _interpolate(rows, load, "latency_avg_ms"),
        "latency_ms": _interpolate(rows, load, metric),
        "metric": metric,
        "threshold_ms": threshold,
        "concurrency": lower.get("concurrency"),
        "load_axis": "offered" if open_loop else "achieved",
        "between": [before, past],
        "rule": rule,
        "rule_text": text,
        "why": why,
    }


OPEN_LOOP_PHASES = ("baseline", "scalability", "saturation")  # the loads a ceiling is set against (the long point is one of them again)


def _drop_noise(best: Point, other: Point) -> float:
    """How much less than the best load another load may achieve within the points' own spread: z × the standard
    error of the difference of their means with ≥ 2 repetitions on both sides, and never under SINGLE_RUN_TOL of the
    best (what one run's rate wanders by)."""
    a, b = best["achieved_values"], other["achieved_values"]
    floor = SINGLE_RUN_TOL * best["achieved_rate"]
    if len(a) >= 2 and len(b) >= 2:
        return max(Z * math.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b)), floor)
    return floor


def _still_rising(curve: Sequence[Point], best: Point) -> bool:
    """Whether the achieved rate was still climbing at the top load: the slope of achieved against offered over the
    loads from 75 % of the top (or the top and the load before it) is at least RISING_GAIN."""
    load = load_of(best)
    near = [p for p in curve if load_of(p) >= 0.75 * load]
    if len(near) < 2:
        near = [p for p in curve if load_of(p) <= load][-2:]
    if len(near) < 2:
        return False
    x = np.array([load_of(p) for p in near], dtype=float)
    y = np.array([p["achieved_rate"] for p in near], dtype=float)
    return bool(np.polyfit(x, y, 1)[0] >= RISING_GAIN)


def ceiling(points: Iterable[Point], *, min_efficiency: float = 0.95) -> dict | None:
    """The throughput ceiling: the highest achieved rate of any completed load (repetitions averaged), and what it is.

    Against every higher offered load of the campaign's sweeps (baseline, scalability, saturation), it is *measured*
    ("kind" "measured", "bound" False) when a higher load achieved less beyond the points' own spread ("fell"), or the
    higher loads achieved no more while falling short of their offered rate ("plateau"), or, at the top load, it fell
    short of its offered rate and the achieved rate had stopped climbing (:func:`_still_rising`; "plateau"). It is a
    *lower bound* ("lower_bound", "bound" True: the limit lies above) only when no higher load was tested or every
    higher one achieved as much, and it kept up ("kept_up") or was still climbing ("rising"). Closed-loop sweeps (no
    offered rate) read concurrency as their load. Returns {"achieved_rate", "phase", "concurrency", "offered_rate",
    "bound", "kind", "reason", "past" (the higher loads: [{"offered_rate", "achieved_rate", "concurrency"}])} or None.
    """
    every = [p for p in aggregate(completed(points)) if p["achieved_rate"] is not None]
    best = max(every, key=lambda p: p["achieved_rate"], default=None)
    if best is None:
        return None
    eff = efficiency(best)
    if eff is not None:
        curve = sorted_by_load(p for p in every if p.get("phase") in OPEN_LOOP_PHASES and efficiency(p) is not None)
        load, at = load_of(best), load_of
    else:  # closed loop: the load is the concurrency
        curve = sorted((p for p in every if p.get("phase") == best.get("phase") and p.get("concurrency") is not None),
                       key=lambda p: p["concurrency"])
        load, at = best.get("concurrency") or 0, (lambda p: p["concurrency"])
    higher = [p for p in curve if at(p) > load]
    fell = [p for p in higher if best["achieved_rate"] - p["achieved_rate"] > _drop_noise(best, p)]
    if fell:
        reason = "fell"
    elif higher:
        short = [p for p in higher if (efficiency(p) if efficiency(p) is not None else 0.0) < min_efficiency]
        reason = "plateau" if short else "kept_up"
    elif eff is None:
        reason = "plateau"  # a closed-loop sweep's top: no offered rate to say it kept up
    elif eff >= min_efficiency:
        reason = "kept_up"
    else:
        reason = "rising" if _still_rising(curve, best) else "plateau"
    bound = reason in ("kept_up", "rising")
    return {
        "achieved_rate": best["achieved_rate"],
        "phase": best.get("phase"),
        "concurrency": best.get("concurrency"),
        "offered_rate": finite(best.get("offered_rate")),
        "bound": bound,
        "kind": "lower_bound" if bound else "measured",
        "reason": reason,
        "past": [{"offered_rate": finite(p.get("offered_rate")), "achieved_rate": p["achieved_rate"], "concurrency": p.get("concurrency")}
                 for p in higher],
    }


def ceiling_statement(top: dict, unit: str) -> str:
    """The ceiling as a reader should say it, with the loads past it and what they achieved."""
    from .conclusion import rate_text

    def load(p: dict) -> str:
        return rate_text(p["offered_rate"], unit) if p.get("offered_rate") is not None else f"concurrency {p.get('concurrency')}"

    at = f" at {load(top)}{' offered' if top.get('offered_rate') is not None else ''}" if top.get("offered_rate") is not None or top.get("concurrency") is not None else ""
    figure = rate_text(top["achieved_rate"], unit)
    higher = "; ".join(f"{rate_text(p['achieved_rate'], unit)} at {load(p)}" for p in top.get("past") or [])
    if top.get("reason") == "fell":
        return f"{figure}{at}, measured: the higher loads achieved less ({higher})"
    if top.get("reason") == "plateau":
        return (f"{figure}{at}, measured: the higher loads achieved no more ({higher})" if higher
                else f"{figure}{at}, measured: the top load fell short of its offered rate and the achieved rate had stopped climbing")
    if top.get("reason") == "rising":
        return f"≥ {figure}{at}, a lower bound: the top load fell short of its offered rate but was still gaining, so the limit lies above"
    if higher:
        return f"≥ {figure}{at}, a lower bound: the higher loads tested achieved as much within their spread ({higher})"
    return f"≥ {figure}{at}, a lower bound: the top load tested kept up with its offered rate, so the limit lies above"


def requests_in_flight(rate: float | None, latency_ms: float | None) -> float | None:
    """Little's law L = X·W: requests in flight at a rate (per second) and a mean latency (ms); None when unknown."""
    x = finite(rate)
    w = finite(latency_ms)
    if x is None or w is None or x <= 0 or w <= 0:
        return None
    return x * w / 1000.0
