"""Repetitions: bootstrap confidence intervals of repeated points (verdicts are in verdicts.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .points import Point, finite, group_repeats

BOOTSTRAP_SEED = 20251227
N_RESAMPLES = 5000

METRICS = ("achieved_rate", "latency_avg_ms", "loss_pct")


def _clean(values: Iterable) -> np.ndarray:
    return np.array([v for v in (finite(x) for x in values) if v is not None], dtype=float)


def bootstrap_ci(
    values: Sequence[float | None],
    *,
    confidence: float = 0.95,
    n_resamples: int = N_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict:
    """Mean and percentile-bootstrap confidence interval of the mean.

    Resamples with replacement using numpy's generator seeded with `seed`, so the same
    values always give the same interval. None/NaN values are ignored. Returns
    {"n", "mean", "ci_low", "ci_high"}; the interval is None with fewer than 2 values
    (one run has no spread) and mean is None with none.
    """
    x = _clean(values)
    if x.size == 0:
        return {"n": 0, "mean": None, "ci_low": None, "ci_high": None}
    mean = float(np.mean(x))
    if x.size < 2:
        return {"n": 1, "mean": mean, "ci_low": None, "ci_high": None}
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, size=(n_resamples, x.size))
    means = x[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return {"n": int(x.size), "mean": mean, "ci_low": float(low), "ci_high": float(high)}


def summarise_repeats(points: Iterable[Point], metrics: Sequence[str] = METRICS) -> list[dict]:
    """Per repeated point (same variant, phase, concurrency, offered rate): mean and CI.

    Returns [{"phase", "variant", "concurrency", "offered_rate", "n", "<metric>":
    {"n", "mean", "ci_low", "ci_high"}, …}, …] over completed points.
    """
    out = []
    for group in group_repeats(points):
        first = group[0]
        row = {
            "phase": first.get("phase"),
            "variant": first.get("variant"),
            "concurrency": first.get("concurrency"),
            "offered_rate": finite(first.get("offered_rate")),
            "n": len(group),
        }
        for m in metrics:
            row[m] = bootstrap_ci([p.get(m) for p in group])
        out.append(row)
    return out
