"""Campaign-against-campaign verdicts a reader can trust (benchstat is the model of care).

Points are matched across campaigns by phase and load (concurrency, offered rate). For each
matched point and metric, Welch's t-test on the repetitions decides at a stated confidence,
with at least MIN_REPEATS repetitions per side (fewer: "not enough data"); the p-values of a
sweep's points are corrected with Holm's method, so a 20-point sweep does not find a
"difference" by chance. Every verdict carries the effect (difference of means) and its
confidence interval, and the smallest change the data could have detected (at α = 1 −
confidence and POWER). A practical margin (±MARGIN_PCT % of the reference mean by default)
tells "the same" from "don't know": when the (1 − 2α) interval of the difference lies inside
it (two one-sided tests, TOST) the verdict is "equivalent" (within the margin); "no detectable
difference" is kept for intervals wider than the margin. Pure functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from scipy import stats

from .points import Point, finite, group_repeats

BETTER, WORSE, SAME, FEW = "better", "worse", "no detectable difference", "not enough data"
MIXED, EQUIVALENT = "mixed", "equivalent"
MIN_REPEATS = 3
MARGIN_PCT = 2.0  # the default practical margin: a plan's `margin_pct` overrides it
POWER = 0.8  # the power the smallest detectable change is stated at


def welch(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95) -> dict:
    """Welch's t-test of mean(b) − mean(a): {"diff", "ci_low", "ci_high", "p"}.

    Also "se" and "df" (Welch–Satterthwaite). Two sides without any spread have p = 0 when
    their means differ and 1 when they do not.
    """
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(xb.mean() - xa.mean())
    va, vb = xa.var(ddof=1) / xa.size, xb.var(ddof=1) / xb.size
    se = math.sqrt(va + vb)
    if se == 0:
        return {"diff": diff, "ci_low": diff, "ci_high": diff, "p": 0.0 if diff else 1.0, "se": 0.0, "df": float(xa.size + xb.size - 2)}
    df = (va + vb) ** 2 / ((va**2 / (xa.size - 1) if va else 0.0) + (vb**2 / (xb.size - 1) if vb else 0.0))
    t = diff / se
    half = float(stats.t.ppf(0.5 + confidence / 2, df)) * se
    return {"diff": diff, "ci_low": diff - half, "ci_high": diff + half, "p": float(2 * stats.t.sf(abs(t), df)), "se": se, "df": df}


def detectable(se: float, df: float, *, confidence: float = 0.95, power: float = POWER) -> float:
    """The smallest true difference a two-sided test at α = 1 − confidence finds with probability `power`."""
    return float((stats.t.ppf(0.5 + confidence / 2, df) + stats.t.ppf(power, df)) * se)


def equivalence(tested: dict, reference: float, *, margin_pct: float, confidence: float = 0.95) -> dict:
    """TOST at α = 1 − confidence: is the (1 − 2α) interval of the difference inside ±margin_pct % of `reference`?

    `tested` is a :func:`welch` result. Returns {"equivalent", "tost_low", "tost_high",
    "detectable", "detectable_pct", "margin_pct"} (the detectable change at α and POWER).
    """
    half = float(stats.t.ppf(1 - (1 - confidence), tested["df"])) * tested["se"]
    low, high = tested["diff"] - half, tested["diff"] + half
    bound = abs(reference) * margin_pct / 100.0
    smallest = detectable(tested["se"], tested["df"], confidence=confidence)
    return {"equivalent": bool(bound > 0 and -bound < low and high < bound), "tost_low": low, "tost_high": high,
            "detectable": smallest, "detectable_pct": smallest / abs(reference) * 100.0 if reference else None,
            "margin_pct": margin_pct}  # fmt: skip


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


def point_verdict(a: Sequence[float], b: Sequence[float], *, better: int | None, confidence: float = 0.95,
                  margin_pct: float = MARGIN_PCT) -> dict:
    """One metric of one matched point, before correction: the test and the equivalence test, or "not enough data"."""
    row = {"n_a": len(a), "n_b": len(b), "mean_a": float(np.mean(a)) if a else None, "mean_b": float(np.mean(b)) if b else None,
           "diff": None, "ci_low": None, "ci_high": None, "change_pct": None, "p": None, "p_adjusted": None, "verdict": FEW,
           "equivalent": None, "detectable_pct": None, "margin_pct": margin_pct}  # fmt: skip
    if row["mean_a"] is not None and row["mean_b"] is not None and row["mean_a"] != 0:
        row["change_pct"] = (row["mean_b"] - row["mean_a"]) / abs(row["mean_a"]) * 100.0
    if len(a) < MIN_REPEATS or len(b) < MIN_REPEATS or better is None:
        return row
    row.update(welch(a, b, confidence=confidence))
    row.update(equivalence(row, row["mean_a"], margin_pct=margin_pct, confidence=confidence))
    return row


def decide(row: dict, *, better: int | None, confidence: float) -> str:
    """The verdict of a tested row once its p-value is adjusted: equivalent (inside the margin) first."""
    if row["p_adjusted"] is None or better is None:
        return FEW
    if row.get("equivalent"):
        return EQUIVALENT
    if row["p_adjusted"] >= 1 - confidence:
        return SAME
    return BETTER if row["diff"] * better > 0 else WORSE


def verdict_text(verdict: str | None, margin_pct: float) -> str | None:
    """A verdict as a reader reads it: "equivalent within ±2 %" for EQUIVALENT, the others as they are."""
    return f"equivalent within ±{margin_pct:g} %" if verdict == EQUIVALENT else verdict


def power_text(detectable_pct: float | None, confidence: float) -> str:
    """ "smallest detectable change 3.1 % (α = 0.05, power 0.8)" """
    figure = f"{detectable_pct:.3g} %" if detectable_pct is not None else "unknown"
    return f"smallest detectable change {figure} (α = {1 - confidence:.2g}, power {POWER:g})"


def _matched(points: Iterable[Point]) -> dict[tuple, list[Point]]:
    out: dict[tuple, list[Point]] = {}
    for group in group_repeats(p for p in points if not p.get("unsteady")):
        first = group[0]
        out.setdefault((first.get("phase"), first.get("concurrency"), finite(first.get("offered_rate"))), []).extend(group)
    return out


def compare(points_a: Iterable[Point], points_b: Iterable[Point], directions: Mapping[str, int | None], *,
            confidence: float = 0.95, margin_pct: float = MARGIN_PCT) -> dict:
    """B against A, point by point and metric by metric, Holm-corrected across each metric's points.

    `directions`: metric → +1 (higher is better), −1 (lower is better) or None (no verdict),
    from the tool contract. Unsteady points (marked "unsteady") stay out. Returns
    {"confidence", "margin_pct", "points": [{"phase", "concurrency", "offered_rate", "<metric>": row}],
    "overall": {"<metric>": {"verdict", "better", "worse", "same", "equivalent", "few", "basis"}}}.
    """
    ga, gb = _matched(points_a), _matched(points_b)
    keys = [k for k in ga if k in gb]
    rows = [{"phase": k[0], "concurrency": k[1], "offered_rate": k[2]} for k in keys]
    overall = {}
    for metric, better in directions.items():
        tested = [point_verdict(_values(ga[k], metric), _values(gb[k], metric), better=better, confidence=confidence,
                                margin_pct=margin_pct) for k in keys]
        for row, p_adj in zip(tested, holm([r["p"] for r in tested])):
            row["p_adjusted"] = p_adj
            row["verdict"] = decide(row, better=better, confidence=confidence)
        for row, result in zip(rows, tested):
            row[metric] = result
        overall[metric] = _overall([r for r in tested if r["mean_a"] is not None and r["mean_b"] is not None], confidence, margin_pct)
    return {"confidence": confidence, "margin_pct": margin_pct, "points": rows, "overall": overall}


def _overall(rows: list[dict], confidence: float, margin_pct: float) -> dict:
    verdicts = [r["verdict"] for r in rows]
    counts = {name: verdicts.count(v) for name, v in (("better", BETTER), ("worse", WORSE), ("same", SAME), ("equivalent", EQUIVALENT),
                                                      ("few", FEW))}  # fmt: skip
    if counts["worse"] and counts["better"]:
        verdict = MIXED
    elif counts["worse"]:
        verdict = WORSE
    elif counts["better"]:
        verdict = BETTER
    elif counts["same"]:
        verdict = SAME
    elif counts["equivalent"]:
        verdict = EQUIVALENT
    else:
        verdict = FEW if verdicts else None
    smallest = [r["detectable_pct"] for r in rows if r.get("detectable_pct") is not None]
    change = power_text(max(smallest), confidence) if smallest else None
    basis = (f"Welch's t-test per matched point, ≥ {MIN_REPEATS} repetitions a side, Holm-corrected over "
             f"{len(verdicts)} point(s), {confidence:.0%} confidence; equivalent when the {1 - 2 * (1 - confidence):.0%} interval "
             f"lies within ±{margin_pct:g} % (TOST)" + (f"; {change} at the least sensitive point" if change else ""))
    return {"verdict": verdict, **counts, "basis": basis, "margin_pct": margin_pct, "detectable_pct": max(smallest) if smallest else None,
            "detail": change}

