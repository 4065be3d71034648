"""Repeat until decided: a sequential test over passes that may look after every pass (issue 50, item 4).

Within a pass the variants run back to back, so each pass gives, for every named headline metric, one paired
difference d = ln(B / A) (B the variant, A the reference): a host that drifts over the campaign moves both sides of a
pair alike and cancels out. Over the passes, each metric's differences are tested with the scale-invariant Bayes factor
of the one-sample t-test (a normal prior of variance G on the standardised effect, the right-Haar prior on the spread;
Rouder et al. 2009, eq. 1 with a fixed g). Under group invariance this Bayes factor is an e-process (Pérez-Ortiz, Lardy,
de Heide & Grünwald 2024, "E-statistics, group invariance and anytime-valid testing"): by Ville's inequality it
reaches 1/α with probability at most α however often it is looked at. Inverting it for every shifted null gives an
anytime-valid confidence sequence for the mean log-ratio; its running intersection over the passes decides:

- "worse" / "better": the interval excludes 0 (the direction from the metric's sense: +1 higher is better);
- "equivalent": the interval lies inside ±margin_pct % (as log-ratios);
- "undecided": neither yet.

The level of each metric is α / k over the k named metrics (Bonferroni), so the chance that identical variants are
called worse or better on any of them stays ≤ α over the whole run, whenever it stops. Pure functions over numpy
arrays, vectorised over leading axes (the simulation runs thousands of campaigns at once).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

WORSE, BETTER, EQUIVALENT, UNDECIDED = "worse", "better", "equivalent", "undecided"
ALPHA = 0.05
G = 1.0  # prior variance of the standardised effect |mean| / sd: sized for effects about as large as the pass-to-pass spread
MIN_PASSES = 2  # a spread needs two paired differences
DECIDED, BUDGET, PASSES = "decided", "budget spent", "max passes reached"


def half_width(diffs: np.ndarray, threshold: float, g: float = G) -> tuple[np.ndarray, np.ndarray]:
    """After each pass (last axis), the running mean of `diffs` and the half-width of the anytime-valid interval at
    which the t-test Bayes factor BF(n, t) = (1 + n g)^(-1/2) · ((1 + t²/ν) / (1 + t²/(ν(1 + n g))))^(n/2), ν = n − 1,
    equals `threshold` (= k / α). Solved in closed form: with r = 1 + n g and q = (threshold · √r)^(2/n), the
    critical t² = ν (q − 1) / (1 − q / r) when q < r, else no t reaches it (infinite width). NaN before MIN_PASSES."""
    d = np.asarray(diffs, dtype=float)
    n = np.arange(1, d.shape[-1] + 1, dtype=float)
    total, squares = np.cumsum(d, axis=-1), np.cumsum(d * d, axis=-1)
    mean = total / n
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sd = np.sqrt(np.maximum(squares - n * mean**2, 0.0) / (n - 1))
        r = 1.0 + n * g
        q = (threshold * np.sqrt(r)) ** (2.0 / n)
        t2 = np.where(q < r, (n - 1) * (q - 1) / (1 - q / r), np.inf)
        width = np.sqrt(t2) * sd / np.sqrt(n)
    width = np.where(n >= MIN_PASSES, np.where(np.isnan(width), np.inf, width), np.nan)  # sd 0 with t² inf: no bound yet
    return mean, np.broadcast_to(width, mean.shape)


def intervals(diffs: np.ndarray, *, metrics: int = 1, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """The running intersection of the anytime-valid intervals for the mean log-ratio after each pass (last axis), each
    at level alpha / metrics: (low, high), −inf/+inf before MIN_PASSES or while no bound is reached."""
    mean, width = half_width(diffs, metrics / alpha)
    low = np.where(np.isnan(width), -np.inf, mean - width)
    high = np.where(np.isnan(width), np.inf, mean + width)
    return np.maximum.accumulate(low, axis=-1), np.minimum.accumulate(high, axis=-1)


def verdicts(low: np.ndarray, high: np.ndarray, sense: np.ndarray | int, margin_pct: float) -> np.ndarray:
    """Each interval's verdict (elementwise): worse/better when it excludes 0 (`sense` +1: higher is better),
    equivalent when it lies inside ±margin_pct %, else undecided."""
    bound_low, bound_high = math.log1p(-margin_pct / 100.0), math.log1p(margin_pct / 100.0)
    up = np.asarray(low) > 0
    down = np.asarray(high) < 0
    sense = np.asarray(sense)
    out = np.full(np.broadcast(low, high, sense).shape, UNDECIDED, dtype=object)
    out[(np.asarray(low) > bound_low) & (np.asarray(high) < bound_high)] = EQUIVALENT
    out[(up & (sense > 0)) | (down & (sense < 0))] = BETTER
    out[(up & (sense < 0)) | (down & (sense > 0))] = WORSE
    return out


def pct(log_ratio: float) -> float | None:
    """A log-ratio as a % change of the reference (None when not finite)."""
    return (math.expm1(log_ratio) * 100.0) if math.isfinite(log_ratio) else None


def paired(passes: Sequence[Mapping[str, tuple[float, float]]], metric: str) -> np.ndarray:
    """The pass-by-pass log-ratios ln(B / A) of `metric` ({metric: (reference value, variant value)} a pass); passes
    where either side is missing or not positive are left out."""
    out = [math.log(b / a) for p in passes if (pair := p.get(metric)) is not None
           for a, b in [pair] if a is not None and b is not None and a > 0 and b > 0]  # fmt: skip
    return np.asarray(out, dtype=float)


def decide(passes: Sequence[Mapping[str, tuple[float, float]]], senses: Mapping[str, int], *, margin_pct: float,
           alpha: float = ALPHA) -> dict:
    """The sequential verdict on every named metric (`senses`: metric → +1 higher is better, −1 lower is better) after
    each of `passes` (one {metric: (reference, variant)} a pass): {"metrics": {metric: {"verdict", "passes",
    "effect_pct", "low_pct", "high_pct", "history": [verdict after each pass]}}, "decided": every metric decided,
    "alpha", "level" (alpha / number of metrics), "margin_pct"}."""
    k = max(1, len(senses))
    out = {}
    for metric, sense in senses.items():
        d = paired(passes, metric)
        if d.size == 0:
            out[metric] = {"verdict": UNDECIDED, "passes": 0, "effect_pct": None, "low_pct": None, "high_pct": None,
                           "history": []}  # fmt: skip
            continue
        low, high = intervals(d, metrics=k, alpha=alpha)
        history = verdicts(low, high, sense, margin_pct).tolist()
        out[metric] = {"verdict": history[-1], "passes": int(d.size), "effect_pct": pct(float(d.mean())),
                       "low_pct": pct(float(low[-1])), "high_pct": pct(float(high[-1])), "history": history}  # fmt: skip
    return {"metrics": out, "decided": all(m["verdict"] != UNDECIDED for m in out.values()), "alpha": alpha,
            "level": alpha / k, "margin_pct": margin_pct}  # fmt: skip


def stop_reason(result: Mapping, *, passes: int, max_passes: int, spent_s: float, budget_s: float | None) -> str | None:
    """Why the campaign stops after `passes` passes (None: run another): every named metric decided, max_passes
    reached, or the time budget spent (another pass of the mean length so far would exceed it)."""
    if result["decided"]:
        return DECIDED
    if passes >= max_passes:
        return PASSES
    if budget_s is not None and passes and spent_s + spent_s / passes > budget_s:
        return BUDGET
    return None


def passes_of(points: Sequence[Mapping], metrics: Sequence[str], reference: str, variant: str) -> list[dict]:
    """Per pass (a point's `repeat`), in order, each metric's (reference mean, variant mean) over that pass's completed
    points (analysis-shaped point dicts); a pass missing either side is left out."""
    by_pass: dict[int, dict[str, list[Mapping]]] = {}
    for p in points:
        if p.get("status") == "completed" and p.get("variant") in (reference, variant):
            by_pass.setdefault(int(p.get("repeat") or 0), {}).setdefault(p["variant"], []).append(p)
    out = []
    for _, sides in sorted(by_pass.items()):
        if reference in sides and variant in sides:
            out.append({m: (_mean(sides[reference], m), _mean(sides[variant], m)) for m in metrics})
    return out


def _mean(points: Sequence[Mapping], metric: str) -> float | None:
    """The mean of a metric over points (None when none has it)."""
    values = [float(v) for p in points if isinstance(v := p.get(metric), int | float) and math.isfinite(v)]
    return float(np.mean(values)) if values else None


def trace(points: Sequence[Mapping], variants: Sequence[str], senses: Mapping[str, int], *, margin_pct: float,
          alpha: float = ALPHA) -> dict:
    """Every variant against the first (the reference), at alpha shared over the variants (Bonferroni; decide shares it
    over the metrics): {"reference", "variants": {label: decide(...)}, "decided", "passes"}."""
    reference, others = variants[0], list(variants[1:])
    level = alpha / max(1, len(others))
    found = {v: decide(passes_of(points, list(senses), reference, v), senses, margin_pct=margin_pct, alpha=level) for v in others}
    passes = len({int(p.get("repeat") or 0) for p in points if p.get("status") == "completed"})
    return {"reference": reference, "variants": found, "decided": all(r["decided"] for r in found.values()), "passes": passes}
