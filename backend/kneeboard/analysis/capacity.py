"""Capacity at an SLO: the highest load that keeps a latency target (and efficiency ≥ 95 %), with its kind.

The figure people compare. A sweep bounds it one of three ways (its *kind*):

- ``between``: the target held at one tested load and broke at the next; the capacity is
  interpolated between them (so sweeps on different load grids compare) and has an interval
  from resampling each load's repetitions (a percentile bootstrap);
- ``at_least``: the target held at every load tested: capacity is at least the highest;
- ``below``: the target broke already at the lowest load: capacity is below it.

A bound is said as a bound (``≥ 4,000 q/s``), never as a measurement. One capacity is also
computed per repetition (each repetition's own sweep), for comparisons to test. Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .conclusion import rate_text
from .points import Point, finite, group_repeats, load_of, sweep_points

SEED = 20261123
SLO_METRICS = ("latency_avg_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms")  # what an SLO may be read on
N_RESAMPLES = 2000
BETWEEN, AT_LEAST, BELOW = "between", "at_least", "below"
KINDS = (BETWEEN, AT_LEAST, BELOW)


def latency_metric(points: Iterable[Point]) -> str | None:
    """The latency the SLO is read on: p99 when the tool measured it, else the mean."""
    pts = list(points)
    for metric in ("latency_p99_ms", "latency_avg_ms"):
        if any(finite(p.get(metric)) is not None for p in pts):
            return metric
    return None


@dataclass(frozen=True)
class Estimate:
    """One sweep's capacity: its kind, the figure (the bound itself when censored) and the tested loads around it."""

    kind: str
    value: float
    low: float | None  # the achieved rate of the last load that kept the target (None: below)
    high: float | None  # ... of the first load that broke it (None: at_least)


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


def estimate(means: Sequence[tuple[float, float, float]], limit_ms: float, min_efficiency: float) -> Estimate | None:
    """The capacity of per-load (latency, achieved, efficiency or nan) means, lowest load first; None without loads."""
    last = None
    for latency, achieved, eff in means:
        ok_eff = np.isnan(eff) or eff >= min_efficiency
        if latency <= limit_ms and ok_eff:
            last = (latency, achieved, eff)
            continue
        if last is None:
            return Estimate(BELOW, float(achieved), None, float(achieved))
        fractions = []
        if latency > limit_ms:
            fractions.append((limit_ms - last[0]) / (latency - last[0]) if latency != last[0] else 0.0)
        if not ok_eff and not np.isnan(last[2]):
            fractions.append((last[2] - min_efficiency) / (last[2] - eff) if last[2] != eff else 0.0)
        f = float(np.clip(min(fractions), 0.0, 1.0)) if fractions else 0.0
        return Estimate(BETWEEN, float(last[1] + f * (achieved - last[1])), float(last[1]), float(achieved))
    return None if last is None else Estimate(AT_LEAST, float(last[1]), float(last[1]), None)


def _means(levels: list[dict], pick=None) -> list[tuple[float, float, float]]:
    out = []
    for i, lv in enumerate(levels):
        idx = pick[i] if pick is not None else slice(None)
        lat, ach, off = lv["latency"][idx], lv["achieved"][idx], lv["offered"][idx]
        eff = float(np.mean(ach / off)) if not np.isnan(off).any() and (off > 0).all() else float("nan")
        out.append((float(np.mean(lat)), float(np.mean(ach)), eff))
    return out


def per_repetition(sweep: Sequence[Point], metric: str, limit_ms: float, min_efficiency: float) -> list[dict]:
    """One capacity per repetition (each repetition's own sweep), in repetition order: [{"repeat", "kind", "value"}]."""
    out = []
    for rep in sorted({int(p.get("repeat") or 0) for p in sweep}):
        levels = _levels([p for p in sweep if int(p.get("repeat") or 0) == rep], metric)
        if (found := estimate(_means(levels), limit_ms, min_efficiency)) is not None:
            out.append({"repeat": rep, "kind": found.kind, "value": found.value})
    return out


HOW = {
    BETWEEN: "interpolated between the last load that kept the target and the first that broke it",
    AT_LEAST: "a lower bound: the SLO held at every load tested",
    BELOW: "an upper bound: the SLO was already missed at the lowest load tested",
}


def statement(capacity: dict, unit: str = "ops/s") -> str:
    """The capacity as a reader should say it: "≥ 4,000 q/s — the SLO held at every load tested", "< 500 q/s — …", "2,512 q/s"."""
    kind, value = capacity.get("kind"), capacity.get("value")
    if value is None:
        return "not measured"
    if kind == AT_LEAST:
        return f"≥ {rate_text(value, unit)} — the SLO held at every load tested"
    if kind == BELOW:
        return f"< {rate_text(value, unit)} — the SLO was missed at the lowest load tested"
    return rate_text(value, unit)


def _estimates(lat: np.ndarray, ach: np.ndarray, eff: np.ndarray, limit_ms: float, min_efficiency: float) -> np.ndarray:
    """:func:`estimate`'s value for many sweeps at once (rows: sweeps, columns: loads lowest first), as one array."""
    ok_eff = np.isnan(eff) | (eff >= min_efficiency)
    ok = (lat <= limit_ms) & ok_eff
    rows = np.arange(lat.shape[0])
    j = np.argmax(~ok, axis=1)  # the first load that broke the target (0 when none did: told apart below)
    held = ok.all(axis=1)
    prev = np.maximum(j - 1, 0)
    lat0, lat1, ach0, ach1 = lat[rows, prev], lat[rows, j], ach[rows, prev], ach[rows, j]
    eff0, eff1 = eff[rows, prev], eff[rows, j]
    with np.errstate(divide="ignore", invalid="ignore"):
        by_lat = np.where(lat1 != lat0, (limit_ms - lat0) / (lat1 - lat0), 0.0)
        by_eff = np.where(eff0 != eff1, (eff0 - min_efficiency) / (eff0 - eff1), 0.0)
    by_lat = np.where(lat1 > limit_ms, by_lat, np.inf)
    by_eff = np.where(~ok_eff[rows, j] & ~np.isnan(eff0), by_eff, np.inf)
    f = np.minimum(by_lat, by_eff)
    f = np.where(np.isfinite(f), np.clip(f, 0.0, 1.0), 0.0)
    value = ach0 + f * (ach1 - ach0)
    value = np.where(j == 0, ach[:, 0], value)  # below: the lowest load already broke it
    return np.where(held, ach[:, -1], value)  # at least: every load kept it


def _bootstrap(levels: list[dict], limit_ms: float, min_efficiency: float, confidence: float, n_resamples: int,
               seed: int) -> tuple[float, float]:
    """A percentile interval of the capacity from resampling each load's repetitions (all resamples at once)."""
    rng = np.random.default_rng(seed)
    columns = {"lat": [], "ach": [], "eff": []}
    for lv in levels:
        pick = rng.integers(0, lv["latency"].size, (n_resamples, lv["latency"].size))
        columns["lat"].append(lv["latency"][pick].mean(axis=1))
        columns["ach"].append(lv["achieved"][pick].mean(axis=1))
        off = lv["offered"]
        usable = not np.isnan(off).any() and (off > 0).all()
        columns["eff"].append((lv["achieved"][pick] / off[pick]).mean(axis=1) if usable else np.full(n_resamples, np.nan))
    draws = _estimates(*(np.column_stack(columns[k]) for k in ("lat", "ach", "eff")), limit_ms, min_efficiency)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha])
    return float(low), float(high)


def capacity_at_slo(points: Iterable[Point], *, limit_ms: float, metric: str | None = None, min_efficiency: float = 0.95,
                    confidence: float = 0.95, n_resamples: int = N_RESAMPLES, seed: int = SEED, unit: str = "ops/s") -> dict | None:
    """The highest achieved rate of the load sweep that keeps `metric` ≤ `limit_ms` and efficiency ≥ `min_efficiency`.

    Returns {"kind": "between"|"at_least"|"below", "value", "low", "high", "ci_low", "ci_high",
    "metric", "limit_ms", "min_efficiency", "repeats", "per_repeat", "how", "statement"}; `value`
    is the interpolated capacity (between) or the bound (the highest / lowest load's achieved
    rate); `low`/`high` the achieved rates of the tested loads around it (None on the open side);
    the interval only for `between` with ≥ 2 repetitions per load. None when there is no sweep
    or no latency.
    """
    _, sweep = sweep_points(points)
    metric = metric or latency_metric(sweep)
    if metric is None:
        return None
    levels = _levels(sweep, metric)
    found = estimate(_means(levels), limit_ms, min_efficiency)
    if found is None:
        return None
    repeats = min(lv["latency"].size for lv in levels)
    ci_low = ci_high = None
    if repeats >= 2 and found.kind == BETWEEN:
        ci_low, ci_high = _bootstrap(levels, limit_ms, min_efficiency, confidence, n_resamples, seed)
    result = {"kind": found.kind, "value": found.value, "low": found.low, "high": found.high, "ci_low": ci_low, "ci_high": ci_high,
              "metric": metric, "limit_ms": limit_ms, "min_efficiency": min_efficiency, "repeats": repeats,
              "per_repeat": per_repetition(sweep, metric, limit_ms, min_efficiency), "how": HOW[found.kind]}  # fmt: skip
    result["statement"] = statement(result, unit)
    return result
