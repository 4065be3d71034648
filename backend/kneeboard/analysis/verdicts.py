"""Campaign-against-campaign verdicts a reader can trust (benchstat is the model of care).

Points are matched across campaigns by phase and load (concurrency, offered rate). For each
matched point and metric, Welch's t-test on the repetitions decides at a stated confidence,
with at least MIN_REPEATS repetitions per side (fewer: "not enough data"). The tests of a
comparison are corrected together (:func:`two_level`): every metric over its matched points is
a family, and so is each capacity (capacity_verdict); families are selected by
Benjamini–Hochberg across the whole comparison, then the points within each selected one. Of
the metrics a headline of twenty says differ, at most 1 − confidence are expected to be false
(Holm within each metric alone let such a headline flag something in half the comparisons of
identical setups). Every verdict carries the effect (difference of means) and its confidence
interval, and the smallest change the data could have detected (at α = 1 − confidence and
POWER). A practical margin (±MARGIN_PCT % of the reference mean by default) tells "the same"
from "don't know": when the (1 − 2α) interval of the difference lies inside it (two one-sided
tests, TOST) the verdict is "equivalent"; "no detectable difference" is kept for intervals
wider than the margin. A metric's verdict over its points follows the direction of its
effect (:func:`follow`). Pure functions.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

import numpy as np
from scipy import special, stats

from .points import Point, finite, group_repeats

BETTER, WORSE, SAME, FEW = "better", "worse", "no detectable difference", "not enough data"
MIXED, EQUIVALENT = "mixed", "equivalent"
MIN_REPEATS = 3
MARGIN_PCT = 2.0  # the default practical margin: a plan's `margin_pct` overrides it
POWER = 0.8  # the power the smallest detectable change is stated at
CHANGE_PCT = 10.0  # the change an undecided verdict's next step is sized to detect (% of the reference's mean)
COUNTS = (("better", BETTER), ("worse", WORSE), ("same", SAME), ("equivalent", EQUIVALENT), ("few", FEW))  # MetricVerdict's counts


def _plain(value: object) -> object:
    """A numpy scalar as a Python one; NaN (a figure that cannot be computed) as None."""
    if isinstance(value, np.generic | np.ndarray):
        value = value.item()
    return None if isinstance(value, float) and math.isnan(value) else value


def t_quantile(q, df):  # noqa: ANN001, ANN201 (arrays or scalars)
    """Student's t quantile: scipy's stats.t.ppf without its per-call argument checks (the same special.stdtrit it
    calls, NaN where df ≤ 0 as there); the comparison asks for thousands, one at a time, in repetitions_for."""
    return special.stdtrit(df, q)


def _welch(mean_a, var_a, n_a, mean_b, var_b, n_b, confidence: float) -> dict:  # noqa: ANN001 (arrays or scalars)
    """Welch's test from each side's mean, variance and size, elementwise over numpy arrays."""
    with np.errstate(divide="ignore", invalid="ignore"):
        va, vb = var_a / n_a, var_b / n_b
        diff = mean_b - mean_a
        se = np.sqrt(va + vb)
        df = (va + vb) ** 2 / (np.where(va > 0, va**2 / (n_a - 1), 0.0) + np.where(vb > 0, vb**2 / (n_b - 1), 0.0))
        df = np.where(se > 0, df, n_a + n_b - 2.0)
        p = np.where(se > 0, 2 * stats.t.sf(np.abs(diff / se), df), np.where(diff != 0, 0.0, 1.0))
        half = t_quantile(0.5 + confidence / 2, df) * se
    return {"diff": diff, "ci_low": diff - half, "ci_high": diff + half, "p": p, "se": se, "df": df}


def welch(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95) -> dict:
    """Welch's t-test of mean(b) − mean(a): {"diff", "ci_low", "ci_high", "p"}.

    Also "se" and "df" (Welch–Satterthwaite). Two sides without any spread have p = 0 when
    their means differ and 1 when they do not.
    """
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    tested = _welch(xa.mean(), xa.var(ddof=1), xa.size, xb.mean(), xb.var(ddof=1), xb.size, confidence)
    return {**{k: float(v) for k, v in tested.items()}, **_spread(xa, xb)}


def _spread(xa: np.ndarray, xb: np.ndarray) -> dict:
    """Each side's size, mean and standard deviation (ddof 1; None with fewer than 2 values): what a next step is sized from."""
    def sd(x: np.ndarray) -> float | None:
        return float(x.std(ddof=1)) if x.size >= 2 else None
    return {"n_a": int(xa.size), "n_b": int(xb.size), "mean_a": float(xa.mean()) if xa.size else None,
            "mean_b": float(xb.mean()) if xb.size else None, "sd_a": sd(xa), "sd_b": sd(xb)}


def repetitions_for(sd_a: float, sd_b: float, delta: float, *, confidence: float = 0.95, power: float = POWER) -> int | None:
    """The repetitions a side a two-sided Welch test at α = 1 − confidence needs to detect a true difference `delta`
    with probability `power`, the sides' spreads being sd_a and sd_b (at the same point length): the smallest n ≥
    MIN_REPEATS with (t_{1−α/2, ν} + t_{power, ν}) · √((sd_a² + sd_b²) / n) ≤ |delta|, ν = Welch–Satterthwaite's
    (n − 1)(sd_a² + sd_b²)² / (sd_a⁴ + sd_b⁴). It starts from the normal approximation n = 2((z_{1−α/2} + z_{power})
    · sd / delta)², sd² = (sd_a² + sd_b²) / 2, which the t quantiles only raise. None when delta is 0."""
    if not delta:
        return None
    va, vb = sd_a**2, sd_b**2
    if va + vb == 0:
        return MIN_REPEATS
    z = special.ndtri(0.5 + confidence / 2) + special.ndtri(power)  # stats.norm.ppf, as t_quantile is stats.t.ppf
    n = max(MIN_REPEATS, math.ceil(2 * (z * math.sqrt((va + vb) / 2) / delta) ** 2))
    while True:
        df = (n - 1) * (va + vb) ** 2 / (va**2 + vb**2)
        if (t_quantile(0.5 + confidence / 2, df) + t_quantile(power, df)) * math.sqrt((va + vb) / n) <= abs(delta):
            return n
        n += 1


def next_step(spread: Mapping, *, confidence: float = 0.95, change_pct: float = CHANGE_PCT) -> dict | None:
    """What would decide an undecided verdict, from the spread its test measured (`spread`: {"n_a", "n_b", "mean_a",
    "sd_a", "sd_b"} of the values it tested, one a repetition): the repetitions a side, at the same point length, that
    would detect a `change_pct` % change of A's mean (:func:`repetitions_for`, at α = 1 − confidence and POWER), and the
    change these repetitions could detect. {"change_pct", "repetitions" (None: no spread measured yet), "now" (the
    fewer repetitions of the two sides), "detectable_pct", "text"}. None without a reference mean to take % of."""
    n_a, n_b, mean_a = spread.get("n_a") or 0, spread.get("n_b") or 0, spread.get("mean_a")
    if not mean_a or not math.isfinite(mean_a):
        return None
    out = {"change_pct": change_pct, "repetitions": None, "now": min(n_a, n_b), "detectable_pct": None}
    if spread.get("sd_a") is None or spread.get("sd_b") is None:
        out["text"] = (f"no spread measured yet ({n_a} and {n_b} repetitions): repeat each point at least {MIN_REPEATS} times a side, "
                       f"then the spread tells how many repetitions a {change_pct:g} % change needs")
        return out
    sd_a, sd_b = spread["sd_a"], spread["sd_b"]
    measured = _welch(mean_a, sd_a**2, n_a, mean_a, sd_b**2, n_b, confidence)  # the spread's se and df as the test had them
    out["detectable_pct"] = float(detectable(measured["se"], measured["df"], confidence=confidence)) / abs(mean_a) * 100.0
    out["repetitions"] = need = repetitions_for(sd_a, sd_b, abs(mean_a) * change_pct / 100.0, confidence=confidence)
    could = f"these could detect {pct_text(out['detectable_pct'])}"
    stated = f"α = {1 - confidence:.2g}, power {POWER:g}"
    if need <= out["now"]:
        out["text"] = (f"the {out['now']} repetitions a side already detect a {change_pct:g} % change ({could}, {stated}): "
                       f"a difference, if any, is smaller")
    else:
        out["text"] = (f"to detect a {change_pct:g} % change: {need} repetitions a side at the same point length (now {out['now']}; "
                       f"{stated}); {could}")
    return out


def next_step_of(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95) -> dict | None:
    """:func:`next_step` from each side's values (one a repetition)."""
    return next_step(_spread(np.asarray(a, dtype=float), np.asarray(b, dtype=float)), confidence=confidence)


def detectable(se, df, *, confidence: float = 0.95, power: float = POWER):  # noqa: ANN001, ANN201 (arrays or scalars)
    """The smallest true difference a two-sided test at α = 1 − confidence finds with probability `power`."""
    return (t_quantile(0.5 + confidence / 2, df) + t_quantile(power, df)) * se


def _equivalence(tested: dict, reference, *, margin_pct: float, confidence: float) -> dict:  # noqa: ANN001
    """:func:`equivalence`, elementwise over numpy arrays (NaN where the reference is 0)."""
    half = t_quantile(confidence, tested["df"]) * tested["se"]
    low, high = tested["diff"] - half, tested["diff"] + half
    bound = np.abs(reference) * margin_pct / 100.0
    smallest = detectable(tested["se"], tested["df"], confidence=confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        pct = np.where(reference != 0, smallest / np.abs(reference) * 100.0, np.nan)
    return {"equivalent": (bound > 0) & (-bound < low) & (high < bound), "tost_low": low, "tost_high": high,
            "detectable": smallest, "detectable_pct": pct, "margin_pct": margin_pct}  # fmt: skip


def equivalence(tested: dict, reference: float, *, margin_pct: float, confidence: float = 0.95) -> dict:
    """TOST at α = 1 − confidence: is the (1 − 2α) interval of the difference inside ±margin_pct % of `reference`?

    `tested` is a :func:`welch` result. Returns {"equivalent", "tost_low", "tost_high",
    "detectable", "detectable_pct", "margin_pct"} (the detectable change at α and POWER).
    """
    return {k: _plain(v) for k, v in _equivalence(tested, reference, margin_pct=margin_pct, confidence=confidence).items()}


def benjamini_hochberg(pvalues: Sequence[float | None]) -> list[float | None]:
    """Benjamini–Hochberg adjusted p-values of a family (None stays None): those ≤ α keep the false discovery rate at α.

    The step-up adjustment scipy.stats.false_discovery_control makes, in a few numpy calls (a
    comparison adjusts dozens of families; scipy's takes a millisecond each)."""
    tested = [i for i, p in enumerate(pvalues) if p is not None]
    adjusted: list[float | None] = [None] * len(pvalues)
    if tested:
        p = np.array([pvalues[i] for i in tested], dtype=float)
        order = np.argsort(p)
        scaled = p[order] * len(p) / np.arange(1, len(p) + 1)
        ranked = np.empty_like(p)
        ranked[order] = np.minimum(np.minimum.accumulate(scaled[::-1])[::-1], 1.0)
        for i, q in zip(tested, ranked.tolist()):
            adjusted[i] = q
    return adjusted


def two_level(families: Sequence[Sequence[float | None]], alpha: float) -> list[list[float | None]]:
    """Adjusted p-values of families of tests (a metric's points; a capacity alone), Benjamini–Bogomolov (2014).

    Each family's tests are adjusted by Benjamini–Hochberg; the smallest of them (Simes' test
    of the family) selects families by Benjamini–Hochberg across all, at α; the tests of the R
    selected families out of M are then significant when their adjusted p × M / R < α, which is
    the p-value returned (capped at 1). So at most α of the families said to differ are
    expected to be false (a family is said to differ when one of its tests is significant),
    and within each of them at most α of its tests.
    """
    within = [benjamini_hochberg(f) for f in families]
    simes = [min((p for p in w if p is not None), default=None) for w in within]
    tested = sum(p is not None for p in simes)
    selected = max(1, sum(p is not None and p < alpha for p in benjamini_hochberg(simes)))
    return [[None if p is None else min(1.0, p * tested / selected) for p in w] for w in within]


def _values(points: Iterable[Point], metric: str) -> list[float]:
    return [v for v in (finite(p.get(metric)) for p in points) if v is not None]


def _moments(samples: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each sample's size, mean and variance (ddof 1), NaN where undefined."""
    n = np.array([len(s) for s in samples], dtype=float)
    grid = np.full((len(samples), int(n.max(initial=1))), np.nan)
    for i, s in enumerate(samples):
        grid[i, : len(s)] = s
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.nansum(grid, axis=1) / n
        var = np.nansum((grid - mean[:, None]) ** 2, axis=1) / (n - 1)
    return n, mean, var


def point_tests(pairs: Sequence[tuple[Sequence[float], Sequence[float]]], testable: Sequence[bool], *, confidence: float = 0.95,
                margin_pct: float = MARGIN_PCT) -> list[dict]:
    """One metric of one matched point per (A's values, B's values) pair, before correction: the test and the equivalence
    test where `testable` (a direction) and ≥ MIN_REPEATS a side, else "not enough data". All pairs at once (vectorised)."""
    n_a, mean_a, var_a = _moments([a for a, _ in pairs])
    n_b, mean_b, var_b = _moments([b for _, b in pairs])
    run = np.array(testable, dtype=bool) & (n_a >= MIN_REPEATS) & (n_b >= MIN_REPEATS)
    tested = _welch(mean_a[run], var_a[run], n_a[run], mean_b[run], var_b[run], n_b[run], confidence)
    tested.update(_equivalence(tested, mean_a[run], margin_pct=margin_pct, confidence=confidence))
    tested = {k: [_plain(x) for x in v.tolist()] if isinstance(v, np.ndarray) else v for k, v in tested.items()}
    means_a, means_b = ([_plain(x) for x in m.tolist()] for m in (mean_a, mean_b))
    sds_a, sds_b = ([_plain(x) for x in np.sqrt(v).tolist()] for v in (var_a, var_b))  # NaN (None) below 2 values
    rows, at = [], iter(range(int(run.sum())))
    for i in range(len(pairs)):
        ma, mb = means_a[i], means_b[i]
        row = {"n_a": int(n_a[i]), "n_b": int(n_b[i]), "mean_a": ma, "mean_b": mb, "sd_a": sds_a[i], "sd_b": sds_b[i],
               "diff": None, "ci_low": None, "ci_high": None,
               "change_pct": (mb - ma) / abs(ma) * 100.0 if ma and mb is not None else None, "p": None, "p_adjusted": None,
               "verdict": FEW, "equivalent": None, "detectable_pct": None, "margin_pct": margin_pct}  # fmt: skip
        if run[i]:
            j = next(at)
            row.update({k: v[j] if isinstance(v, list) else v for k, v in tested.items()})
        rows.append(row)
    return rows


def decide(row: dict, *, better: int | None, confidence: float) -> str:
    """The verdict of a tested row once its p-value is adjusted: equivalent (inside the margin) first."""
    if row["p_adjusted"] is None or better is None:
        return FEW
    if row.get("equivalent"):
        return EQUIVALENT
    if row["p_adjusted"] >= 1 - confidence:
        return SAME
    return BETTER if row["diff"] * better > 0 else WORSE


def follow(verdict: str | None, change: float | None, better: int | None) -> str | None:
    """A verdict that follows the direction of its effect: "better" or "worse" against the sign of `change` (B − A of
    the figure the verdict is read beside) becomes "mixed"; any other verdict, or no change to read, stays."""
    if verdict not in (BETTER, WORSE) or not change or better is None:
        return verdict
    return verdict if (change * better > 0) == (verdict == BETTER) else MIXED


def verdict_text(verdict: str | None, margin_pct: float) -> str | None:
    """A verdict as a reader reads it: "equivalent within ±2 %" for EQUIVALENT, the others as they are."""
    return f"equivalent within ±{margin_pct:g} %" if verdict == EQUIVALENT else verdict


def pct_text(pct: float) -> str:
    """A percentage a reader can read at a glance: "3.1 %", "> 100 %" (never "1.44e+03 %"), "< 0.01 %"."""
    if pct > 100:
        return "> 100 %"
    return f"{pct:.3g} %" if pct >= 0.01 or pct == 0 else "< 0.01 %"


def power_text(detectable_pct: float | None, confidence: float) -> str:
    """ "smallest detectable change 3.1 % (α = 0.05, power 0.8)" """
    figure = pct_text(detectable_pct) if detectable_pct is not None else "unknown"
    return f"smallest detectable change {figure} (α = {1 - confidence:.2g}, power {POWER:g})"


def method_text(confidence: float, margin_pct: float, families: Sequence[int]) -> str:
    """How every verdict of a comparison is decided, said once (`families`: how many each compared campaign's tests form)."""
    counted = (f"the comparison's {families[0]} metrics and capacities" if len(families) == 1 else
               f"each campaign's metrics and capacities against the reference ({', '.join(str(n) for n in families)})")  # fmt: skip
    return (f"Welch's t-test at each matched point on the repetitions (≥ {MIN_REPEATS} a side), and on the per-repetition capacities, "
            f"{confidence:.0%} confidence; corrected for the number of tests over {counted} (Benjamini–Bogomolov: a metric differs "
            f"when Benjamini–Hochberg across them selects it, then its points are tested at the level left), so at most "
            f"{1 - confidence:.0%} of the metrics said to differ are expected to be false; equivalent when the "
            f"{1 - 2 * (1 - confidence):.0%} interval of the difference lies within ±{margin_pct:g} % (TOST); a metric's verdict "
            "follows the direction of its mean change over its points, else it is mixed")


def match_key(point: Point) -> tuple:
    """Where a point is matched across campaigns: its phase and load (concurrency, offered rate)."""
    return point.get("phase"), point.get("concurrency"), finite(point.get("offered_rate"))


def _matched(points: Iterable[Point]) -> dict[tuple, list[Point]]:
    out: dict[tuple, list[Point]] = {}
    for group in group_repeats(p for p in points if not p.get("unsteady")):
        out.setdefault(match_key(group[0]), []).extend(group)
    return out


def compare(points_a: Iterable[Point], points_b: Iterable[Point], directions: Mapping[str, int | None], *,
            confidence: float = 0.95, margin_pct: float = MARGIN_PCT, also: Mapping[str, float | None] | None = None) -> dict:
    """B against A, point by point and metric by metric, every test corrected together (:func:`two_level`).

    `directions`: metric → +1 (higher is better), −1 (lower is better) or None (no verdict),
    from the tool contract. Unsteady points (marked "unsteady") stay out. `also`: the raw
    p-values of the comparison's other tests (name → p or None: the capacities), each a
    family of its own in the same correction. Returns {"confidence", "margin_pct", "tests"
    (how many were corrected together), "families" (how many families they form),
    "points": [{"phase", "concurrency", "offered_rate", "<metric>": row}],
    "overall": {"<metric>": see :func:`overall`}, "also": {name: adjusted p}}.
    """
    ga, gb = _matched(points_a), _matched(points_b)
    keys = [k for k in ga if k in gb]
    cells = [(metric, better, k) for metric, better in directions.items() for k in keys]
    tested = point_tests([(_values(ga[k], metric), _values(gb[k], metric)) for metric, _, k in cells],
                         [better is not None for _, better, _ in cells], confidence=confidence, margin_pct=margin_pct)
    others = dict(also or {})
    families = [[r["p"] for r, (m, _, _) in zip(tested, cells) if m == metric] for metric in directions] + [[p] for p in others.values()]
    adjusted = [p for family in two_level(families, 1 - confidence) for p in family]
    for row, p_adj, (_, better, _) in zip(tested, adjusted, cells):
        row["p_adjusted"] = p_adj
        row["verdict"] = decide(row, better=better, confidence=confidence)
    rows = {k: {"phase": k[0], "concurrency": k[1], "offered_rate": k[2]} for k in keys}
    for (metric, _, k), result in zip(cells, tested):
        rows[k][metric] = result
    points = list(rows.values())
    return {"confidence": confidence, "margin_pct": margin_pct, "tests": sum(p is not None for p in adjusted),
            "families": sum(any(p is not None for p in f) for f in families), "points": points,
            "overall": {metric: overall(points, metric, better, confidence=confidence, margin_pct=margin_pct)
                        for metric, better in directions.items()},
            "also": dict(zip(others, adjusted[len(tested):]))}  # fmt: skip


def overall(points: Sequence[dict], metric: str, better: int | None, *, at: Collection[tuple] | None = None, confidence: float = 0.95,
            margin_pct: float = MARGIN_PCT) -> dict:
    """One metric over the matched points of a :func:`compare` result (those `at` these match keys, when given).

    Worse if some point is significantly worse and none better, better the other way, mixed
    when both; then "no detectable difference" when some tested point could not tell,
    "equivalent" when every tested point is. A better or worse verdict must agree with the
    metric's effect, the mean of B − A over the points tested (:func:`follow`): significant
    points against it make the verdict "mixed". {"verdict", "better", "worse", "same",
    "equivalent", "few", "basis", "margin_pct", "detectable_pct", "effect", "effect_pct", "detail"}.
    """
    rows = [p[metric] for p in points if metric in p and (at is None or match_key(p) in at)]
    rows = [r for r in rows if r["mean_a"] is not None and r["mean_b"] is not None]
    verdicts = [r["verdict"] for r in rows]
    counts = {name: verdicts.count(v) for name, v in COUNTS}
    if counts["worse"] and counts["better"]:
        verdict = MIXED
    elif counts["worse"] or counts["better"]:
        verdict = WORSE if counts["worse"] else BETTER
    elif counts["same"]:
        verdict = SAME
    elif counts["equivalent"]:
        verdict = EQUIVALENT
    else:
        verdict = FEW if verdicts else None
    tested = [r for r in rows if r["verdict"] != FEW]
    effect = sum(r["mean_b"] - r["mean_a"] for r in tested) / len(tested) if tested else None
    reference = sum(r["mean_a"] for r in tested) / len(tested) if tested else 0.0
    effect_pct = effect / abs(reference) * 100.0 if effect is not None and reference else None
    smallest = [r["detectable_pct"] for r in rows if r.get("detectable_pct") is not None]
    detail = power_text(max(smallest), confidence) + (" at the least sensitive point" if len(smallest) > 1 else "") if smallest else None
    followed = follow(verdict, effect, better)
    if followed != verdict:
        way = "lower" if effect < 0 else "higher"
        detail = (f"{counts['worse'] or counts['better']} point(s) significantly {verdict}, while the mean over the points tested "
                  f"is {way}" + (f" ({effect_pct:+.1f} %)" if effect_pct is not None else ""))
        verdict = followed
    said = ", ".join(f"{counts[name]} {v}" for name, v in COUNTS if counts[name])
    basis = f"Welch's t-test at {len(rows)} matched point(s)" + (f": {said}" if said else "") if rows else "no matched point"
    return {"verdict": verdict, **counts, "basis": basis, "margin_pct": margin_pct, "detectable_pct": max(smallest) if smallest else None,
            "effect": effect, "effect_pct": effect_pct, "detail": detail, "next_step": _points_next_step(rows, confidence)}  # fmt: skip


def _points_next_step(rows: Sequence[dict], confidence: float) -> dict | None:
    """The next step of a metric over its matched points: that of its least sensitive point (the most repetitions), so
    that with them every point would detect the change; a point without a spread yet says so first."""
    steps = [step for row in rows if (step := next_step(row, confidence=confidence)) is not None]
    if not steps:
        return None
    chosen = max(steps, key=lambda step: math.inf if step["repetitions"] is None else step["repetitions"])
    if len(steps) > 1 and chosen["repetitions"] is not None:
        chosen = {**chosen, "text": chosen["text"] + f" (at the least sensitive of {len(steps)} matched points)"}
    return chosen


def _repeat_means(groups: Mapping[tuple, list[Point]], scale: Mapping[tuple, float], metric: str) -> list[float]:
    """Per repetition, the mean over the points at `scale`'s keys of `metric` / scale[key] (so each point weighs the
    same, whatever its size), for the repetitions that measured it at all of them."""
    by_repeat: dict[object, dict[tuple, float]] = {}
    for key, size in scale.items():
        for point in groups[key]:
            value = finite(point.get(metric))
            if value is not None:
                by_repeat.setdefault(point.get("repeat"), {})[key] = value / size
    return [sum(values.values()) / len(values) for values in by_repeat.values() if len(values) == len(scale)]


def mean_over_points(points_a: Iterable[Point], points_b: Iterable[Point], metric: str, *, confidence: float = 0.95,
                     margin_pct: float = MARGIN_PCT) -> dict | None:
    """Welch's test of a metric's mean over the matched points, relative to A's: per repetition a side, the mean over
    the points of value / A's mean there (every point weighs the same; A's side averages 1). The test of a figure that
    is itself a mean of points, which a consistent change across many points passes long before any point alone does;
    its "p" joins the comparison's correction (:func:`compare`'s `also`); "diff" is B's change as a fraction of A.
    None when fewer than MIN_REPEATS repetitions a side measured the metric at every matched point."""
    ga, gb = _matched(points_a), _matched(points_b)
    scale = {k: sum(v) / len(v) for k in ga if k in gb and _values(gb[k], metric) and (v := _values(ga[k], metric)) and sum(v)}
    a, b = _repeat_means(ga, scale, metric), _repeat_means(gb, scale, metric)
    if not scale or len(a) < MIN_REPEATS or len(b) < MIN_REPEATS:
        return None
    tested = welch(a, b, confidence=confidence)
    return {**tested, **equivalence(tested, 1.0, margin_pct=margin_pct, confidence=confidence), "n_a": len(a), "n_b": len(b),
            "points": len(scale)}  # fmt: skip


def tested_verdict(tested: dict, p_adjusted: float | None, better: int | None, *, basis: str, confidence: float = 0.95) -> dict:
    """A headline verdict from one Welch test with its equivalence (a :func:`welch` result updated with
    :func:`equivalence`'s), once its p-value is corrected with the comparison's others (None: its own):
    {"verdict", "basis", "detail", "detectable_pct", "margin_pct"}, as :func:`overall` gives them."""
    margin = tested["margin_pct"]
    verdict = decide({**tested, "p_adjusted": tested["p"] if p_adjusted is None else p_adjusted}, better=better, confidence=confidence)
    power = power_text(tested["detectable_pct"], confidence)
    detail = {EQUIVALENT: f"equivalent within ±{margin:g} %; {power}", SAME: f"the interval is wider than ±{margin:g} %; {power}"}
    return {"verdict": verdict, "basis": basis, "detail": detail.get(verdict, power), "detectable_pct": tested["detectable_pct"],
            "margin_pct": margin, "next_step": next_step(tested, confidence=confidence)}


def mean_verdict(tested: dict, p_adjusted: float | None, better: int | None, *, confidence: float = 0.95) -> dict:
    """A :func:`mean_over_points` test as a headline verdict once its p-value is corrected with the comparison's others."""
    return tested_verdict(tested, p_adjusted, better, confidence=confidence,
                          basis=f"Welch's t-test on each repetition's mean over {tested['points']} matched point(s) "
                                f"({tested['n_a']} and {tested['n_b']} repetitions)")
