"""Capacity at an SLO: the highest load that keeps a latency target (and efficiency ≥ 95 %).

The figure people compare. It is interpolated between the last load that kept the target and
the first that broke it, so two sweeps on different load grids still compare; an interval
comes from resampling each load's repetitions (a percentile bootstrap). Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .points import Point, finite, group_repeats, load_of, sweep_points

SEED = 20261123
SLO_METRICS = ("latency_avg_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms")  # what an SLO may be read on
N_RESAMPLES = 2000


def latency_metric(points: Iterable[Point]) -> str | None:
    """The latency the SLO is read on: p99 when the tool measured it, else the mean."""
    pts = list(points)
    for metric in ("latency_p99_ms", "latency_avg_ms"):
        if any(finite(p.get(metric)) is not None for p in pts):
            return metric
    return None


def _levels(points: Iterable[Point], metric: str) -> list[dict[str, np.ndarray]]:
    """Each load of the sweep with its repetitions' latency, efficiency and achieved rate, lowest load first."""
    levels = []
    for group in group_repeats(points):
        rows = [(finite(p.get(metric)), finite(p.get("achieved_rate")), finite(p.get("offered_rate"))) for p in group]
        rows = [r for r in rows if r[0] is not None and r[1] is not None]
        if rows:
            lat, ach, off = (np.array([r[i] if r[i] is not None else np.nan for r in rows], dtype=float) for i in range(3))
            levels.append({"load": load_of(group[0]), "latency": lat, "achieved": ach, "offered": off})
    return sorted((lv for lv in levels if lv["load"] is not None), key=lambda lv: lv["load"])


def _capacity(means: Sequence[tuple[float, float, float]], limit_ms: float, min_efficiency: float) -> tuple[float | None, str]:
    """(capacity, how) from per-load (latency, achieved, efficiency or nan) means, lowest load first."""
    last = None
    for latency, achieved, eff in means:
        ok_eff = np.isnan(eff) or eff >= min_efficiency
        if latency <= limit_ms and ok_eff:
            last = (latency, achieved, eff)
            continue
        if last is None:
            return None, "the target was missed at the lowest load"
        fractions = []
        if latency > limit_ms:
            fractions.append((limit_ms - last[0]) / (latency - last[0]) if latency != last[0] else 0.0)
        if not ok_eff and not np.isnan(last[2]):
            fractions.append((last[2] - min_efficiency) / (last[2] - eff) if last[2] != eff else 0.0)
        f = float(np.clip(min(fractions), 0.0, 1.0)) if fractions else 0.0
        return last[1] + f * (achieved - last[1]), "interpolated where the target broke"
    if last is None:
        return None, "no load was measured"
    return last[1], "lower bound: the target held at every load tried"


def _means(levels: list[dict], pick=None) -> list[tuple[float, float, float]]:
    out = []
    for i, lv in enumerate(levels):
        idx = pick[i] if pick is not None else slice(None)
        lat, ach, off = lv["latency"][idx], lv["achieved"][idx], lv["offered"][idx]
        eff = float(np.mean(ach / off)) if not np.isnan(off).any() and (off > 0).all() else float("nan")
        out.append((float(np.mean(lat)), float(np.mean(ach)), eff))
    return out


def capacity_at_slo(points: Iterable[Point], *, limit_ms: float, metric: str | None = None, min_efficiency: float = 0.95,
                    confidence: float = 0.95, n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict | None:
    """The highest achieved rate of the load sweep that keeps `metric` ≤ `limit_ms` and efficiency ≥ `min_efficiency`.

    Returns {"metric", "limit_ms", "min_efficiency", "capacity", "ci_low", "ci_high", "repeats", "how"}
    (no interval with a single repetition per load) or None when there is no sweep or no latency.
    """
    _, sweep = sweep_points(points)
    metric = metric or latency_metric(sweep)
    if metric is None:
        return None
    levels = _levels(sweep, metric)
    if not levels:
        return None
    capacity, how = _capacity(_means(levels), limit_ms, min_efficiency)
    repeats = min(lv["latency"].size for lv in levels)
    low = high = None
    if repeats >= 2 and capacity is not None:
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(n_resamples):
            pick = [rng.integers(0, lv["latency"].size, lv["latency"].size) for lv in levels]
            value, _how = _capacity(_means(levels, pick), limit_ms, min_efficiency)
            draws.append(0.0 if value is None else value)
        alpha = (1 - confidence) / 2
        low, high = (float(q) for q in np.quantile(draws, [alpha, 1 - alpha]))
    return {"metric": metric, "limit_ms": limit_ms, "min_efficiency": min_efficiency, "capacity": capacity,
            "ci_low": low, "ci_high": high, "repeats": repeats, "how": how}  # fmt: skip
