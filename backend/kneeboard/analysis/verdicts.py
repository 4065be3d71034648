"""Campaign-against-campaign verdicts a reader can trust (benchstat is the model of care).

Points are matched across campaigns by phase and load (concurrency, offered rate). For each
matched point and metric, Welch's t-test on the repetitions decides at a stated confidence,
with at least MIN_REPEATS repetitions per side (fewer: "not enough data"); the p-values of a
sweep's points are corrected with Holm's method, so a 20-point sweep does not find a
"difference" by chance. Every verdict carries the effect (difference of means) and its
confidence interval. Pure functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from scipy import stats

from .points import Point, finite, group_repeats

BETTER, WORSE, SAME, FEW = "better", "worse", "no detectable difference", "not enough data"
MIXED = "mixed"
MIN_REPEATS = 3


def welch(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95) -> dict:
    """Welch's t-test of mean(b) − mean(a): {"diff", "ci_low", "ci_high", "p"}.

    Two sides without any spread have p = 0 when their means differ and 1 when they do not.
    """
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(xb.mean() - xa.mean())
    va, vb = xa.var(ddof=1) / xa.size, xb.var(ddof=1) / xb.size
    se = math.sqrt(va + vb)
    if se == 0:
        return {"diff": diff, "ci_low": diff, "ci_high": diff, "p": 0.0 if diff else 1.0}
    df = (va + vb) ** 2 / ((va**2 / (xa.size - 1) if va else 0.0) + (vb**2 / (xb.size - 1) if vb else 0.0))
    t = diff / se
    half = float(stats.t.ppf(0.5 + confidence / 2, df)) * se
    return {"diff": diff, "ci_low": diff - half, "ci_high": diff + half, "p": float(2 * stats.t.sf(abs(t), df))}


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (None stays None)."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    adjusted: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted


def _values(points: Iterable[Point], metric: str) -> list[float]:
    return [v for v in (finite(p.get(metric)) for p in points) if v is not None]


def point_verdict(a: Sequence[float], b: Sequence[float], *, better: int | None, confidence: float = 0.95) -> dict:
    """One metric of one matched point, before correction: the test, or "not enough data"."""
    row = {"n_a": len(a), "n_b": len(b), "mean_a": float(np.mean(a)) if a else None, "mean_b": float(np.mean(b)) if b else None,
           "diff": None, "ci_low": None, "ci_high": None, "change_pct": None, "p": None, "p_adjusted": None, "verdict": FEW}  # fmt: skip
    if row["mean_a"] is not None and row["mean_b"] is not None and row["mean_a"] != 0:
        row["change_pct"] = (row["mean_b"] - row["mean_a"]) / abs(row["mean_a"]) * 100.0
    if len(a) < MIN_REPEATS or len(b) < MIN_REPEATS or better is None:
        return row
    row.update(welch(a, b, confidence=confidence))
    return row


def decide(row: dict, *, better: int | None, confidence: float) -> str:
    """The verdict of a tested row once its p-value is adjusted."""
    if row["p_adjusted"] is None or better is None:
        return FEW
    if row["p_adjusted"] >= 1 - confidence:
        return SAME
    return BETTER if row["diff"] * better > 0 else WORSE


def _matched(points: Iterable[Point]) -> dict[tuple, list[Point]]:
    out: dict[tuple, list[Point]] = {}
    for group in group_repeats(p for p in points if not p.get("unsteady")):
        first = group[0]
        out.setdefault((first.get("phase"), first.get("concurrency"), finite(first.get("offered_rate"))), []).extend(group)
    return out


def compare(points_a: Iterable[Point], points_b: Iterable[Point], directions: Mapping[str, int | None], *,
            confidence: float = 0.95) -> dict:
    """B against A, point by point and metric by metric, Holm-corrected across each metric's points.

    `directions`: metric → +1 (higher is better), −1 (lower is better) or None (no verdict),
    from the tool contract. Unsteady points (marked "unsteady") stay out. Returns
    {"confidence", "points": [{"phase", "concurrency", "offered_rate", "<metric>": row}],
    "overall": {"<metric>": {"verdict", "better", "worse", "same", "few", "basis"}}}.
    """
    ga, gb = _matched(points_a), _matched(points_b)
    keys = [k for k in ga if k in gb]
    rows = [{"phase": k[0], "concurrency": k[1], "offered_rate": k[2]} for k in keys]
    overall = {}
    for metric, better in directions.items():
        tested = [point_verdict(_values(ga[k], metric), _values(gb[k], metric), better=better, confidence=confidence) for k in keys]
        for row, p_adj in zip(tested, holm([r["p"] for r in tested])):
            row["p_adjusted"] = p_adj
            row["verdict"] = decide(row, better=better, confidence=confidence)
        for row, result in zip(rows, tested):
            row[metric] = result
        overall[metric] = _overall([r["verdict"] for r in tested if r["mean_a"] is not None and r["mean_b"] is not None], confidence)
    return {"confidence": confidence, "points": rows, "overall": overall}


def _overall(verdicts: list[str], confidence: float) -> dict:
    counts = {name: verdicts.count(v) for name, v in (("better", BETTER), ("worse", WORSE), ("same", SAME), ("few", FEW))}
    if counts["worse"] and counts["better"]:
        verdict = MIXED
    elif counts["worse"]:
        verdict = WORSE
    elif counts["better"]:
        verdict = BETTER
    elif counts["same"]:
        verdict = SAME
    else:
        verdict = FEW if verdicts else None
    basis = (f"Welch's t-test per matched point, ≥ {MIN_REPEATS} repetitions a side, Holm-corrected over "
             f"{len(verdicts)} point(s), {confidence:.0%} confidence")
    return {"verdict": verdict, **counts, "basis": basis}


def interval_verdict(a: dict | None, b: dict | None, *, better: int) -> str:
    """Two estimates with intervals ({"ci_low", "ci_high"}): disjoint intervals decide, overlapping ones do not."""
    if not a or not b or None in (a.get("ci_low"), a.get("ci_high"), b.get("ci_low"), b.get("ci_high")):
        return FEW
    if b["ci_low"] > a["ci_high"]:
        return BETTER if better > 0 else WORSE
    if b["ci_high"] < a["ci_low"]:
        return WORSE if better > 0 else BETTER
    return SAME
