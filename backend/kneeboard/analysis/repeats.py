"""Repetitions: bootstrap confidence intervals, and campaign-against-campaign verdicts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .points import Point, finite, group_repeats

BOOTSTRAP_SEED = 20251227
N_RESAMPLES = 5000

METRICS = ("achieved_rate", "latency_avg_ms", "loss_pct")
# +1: a higher value is better; -1: a lower value is better.
DIRECTION = {
    "achieved_rate": +1,
    "efficiency": +1,
    "throughput_bps": +1,
    "completed": +1,
    "latency_avg_ms": -1,
    "latency_stddev_ms": -1,
    "loss_pct": -1,
    "lost": -1,
    "errors": -1,
    "jitter_ms": -1,
    "retransmits": -1,
}
# Absolute tolerances: below these a difference is noise whatever the relative change.
ABS_TOLERANCE = {"loss_pct": 0.1, "latency_avg_ms": 0.001}


def direction(metric: str) -> int:
    """+1 when a higher value of metric is better, -1 when lower is better.

    Latency metrics (latency_*) are lower-is-better; unknown metrics raise KeyError.
    """
    if metric in DIRECTION:
        return DIRECTION[metric]
    if metric.startswith("latency_"):
        return -1
    raise KeyError(f"no known direction for metric {metric!r}")


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


def verdict(
    metric: str,
    a: Sequence[float | None],
    b: Sequence[float | None],
    *,
    tolerance_pct: float = 5.0,
) -> dict:
    """Is campaign B better, worse, or indistinguishable from A on one metric of one point?

    a and b are the repeated values of the metric. With ≥ 2 values on both sides the 95 %
    bootstrap intervals decide: overlapping intervals are "indistinguishable",
    otherwise the direction of the metric (see :func:`direction`) says better or worse.
    With fewer repeats the means are compared with a tolerance (tolerance_pct of A's
    mean, at least the metric's absolute tolerance) and "basis" says so.

    Returns {"verdict", "basis", "a", "b", "change_pct"} where a and b are
    :func:`bootstrap_ci` results; verdict is None when either side has no value.
    """
    ca, cb = bootstrap_ci(a), bootstrap_ci(b)
    result = {"verdict": None, "basis": None, "a": ca, "b": cb, "change_pct": None}
    if ca["mean"] is None or cb["mean"] is None:
        result["basis"] = "no data on one side"
        return result
    diff = cb["mean"] - ca["mean"]
    if ca["mean"] != 0:
        result["change_pct"] = diff / abs(ca["mean"]) * 100.0
    sign = direction(metric)
    if ca["ci_low"] is not None and cb["ci_low"] is not None:
        result["basis"] = "95 % bootstrap confidence intervals"
        if cb["ci_low"] > ca["ci_high"]:
            result["verdict"] = "better" if sign > 0 else "worse"
        elif cb["ci_high"] < ca["ci_low"]:
            result["verdict"] = "worse" if sign > 0 else "better"
        else:
            result["verdict"] = "indistinguishable"
        return result
    tol = max(abs(ca["mean"]) * tolerance_pct / 100.0, ABS_TOLERANCE.get(metric, 0.0))
    result["basis"] = f"no repeats: compared with a ±{tolerance_pct:g} % tolerance"
    if abs(diff) <= tol:
        result["verdict"] = "indistinguishable"
    else:
        result["verdict"] = "better" if diff * sign > 0 else "worse"
    return result


def compare(
    points_a: Iterable[Point],
    points_b: Iterable[Point],
    *,
    metrics: Sequence[str] = METRICS,
    tolerance_pct: float = 5.0,
) -> dict:
    """Compare two campaigns point by point and sum up a verdict per metric (B against A).

    Points are matched on (phase, concurrency, offered rate); the variant is ignored,
    since comparing variants is the usual purpose. For each metric the overall verdict is
    "better" when at least one matched point is better and none worse, "worse" the
    other way round, otherwise "indistinguishable" (with the counts, so a mixed result
    is visible). Returns {"points": [{"phase", "concurrency", "offered_rate",
    "<metric>": verdict dict}, …], "overall": {"<metric>": {"verdict", "better",
    "worse", "indistinguishable", "basis"}}}.
    """

    def by_key(points):
        out = {}
        for group in group_repeats(points):
            p = group[0]
            key = (p.get("phase"), p.get("concurrency"), finite(p.get("offered_rate")))
            out.setdefault(key, []).extend(group)
        return out

    ga, gb = by_key(points_a), by_key(points_b)
    rows = []
    counts = {m: {"better": 0, "worse": 0, "indistinguishable": 0, "bases": set()} for m in metrics}
    for key in ga:
        if key not in gb:
            continue
        row = {"phase": key[0], "concurrency": key[1], "offered_rate": key[2]}
        for m in metrics:
            v = verdict(
                m, [p.get(m) for p in ga[key]], [p.get(m) for p in gb[key]], tolerance_pct=tolerance_pct
            )
            row[m] = v
            if v["verdict"] is not None:
                counts[m][v["verdict"]] += 1
                counts[m]["bases"].add(v["basis"])
        rows.append(row)
    overall = {}
    for m in metrics:
        c = counts[m]
        if c["better"] and not c["worse"]:
            v = "better"
        elif c["worse"] and not c["better"]:
            v = "worse"
        elif c["better"] or c["worse"] or c["indistinguishable"]:
            v = "indistinguishable"
        else:
            v = None
        basis = "; ".join(sorted(c["bases"])) or None
        if c["better"] and c["worse"]:
            basis = f"mixed: {c['better']} point(s) better, {c['worse']} worse; {basis}"
        overall[m] = {
            "verdict": v,
            "better": c["better"],
            "worse": c["worse"],
            "indistinguishable": c["indistinguishable"],
            "basis": basis,
        }
    return {"points": rows, "overall": overall}
