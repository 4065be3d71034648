"""Stability over time (drift within a long point) and oscillation near saturation."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from .points import Point, aggregate, finite, load_of, sorted_by_load, sweep_points

MIN_SAMPLES = 6  # at least two per third


def _series(samples: Sequence[dict], key: str) -> tuple[np.ndarray, np.ndarray]:
    rows = [
        (t, v)
        for t, v in ((finite(s.get("t")), finite(s.get(key))) for s in samples)
        if t is not None and v is not None
    ]
    rows.sort()
    arr = np.array(rows, dtype=float).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def _trend(t: np.ndarray, v: np.ndarray) -> tuple[float | None, float | None]:
    """(slope per second of a linear fit, last-third mean vs first-third mean in %)."""
    if v.size < MIN_SAMPLES:
        return None, None
    slope = float(np.polyfit(t, v, 1)[0]) if np.ptp(t) > 0 else None
    third = v.size // 3
    first, last = float(np.mean(v[:third])), float(np.mean(v[-third:]))
    drift = (last - first) / first * 100.0 if first != 0 else None
    return slope, drift


# The per-interval latency a drift is judged on, in order of preference: the tools' mean where their intervals carry one
# (devsim), else the median (dnsperf's intervals through kblat, kbhttp, a fanned point's merged histograms).
INTERVAL_LATENCY = ("latency_avg_ms", "latency_p50_ms")


def interval_latency(samples: Sequence[dict]) -> str | None:
    """Which latency the samples carry per interval (the first of INTERVAL_LATENCY that any sample has), else None."""
    return next((key for key in INTERVAL_LATENCY if any(finite(s.get(key)) is not None for s in samples)), None)


def drift(
    samples: Sequence[dict] | None,
    *,
    rate_tolerance_pct: float = 5.0,
    latency_tolerance_pct: float = 20.0,
) -> dict:
    """Drift of achieved rate and latency across one long point's interval samples.

    For each series reports the slope of a least-squares line (per second) and the drift: the
    mean of the last third of the samples against the first third, in %. Latency is the
    interval's mean where the tool gives one, else its median (:func:`interval_latency`, named in
    "latency_metric"); a tool whose intervals carry neither (dnsperf without kblat) has no latency
    drift. Verdict: "drifting" when |rate drift| > rate_tolerance_pct or |latency drift| >
    latency_tolerance_pct, "stable" otherwise, "insufficient data" with fewer than 6 rate samples.

    Returns {"verdict", "rate_drift_pct", "latency_drift_pct", "latency_metric", "drifted", "statement",
    "rate_slope_per_s", "latency_slope_ms_per_s", "samples"}: "drifted" lists the series that went past their tolerance
    ([{"metric", "drift_pct", "tolerance_pct"}], largest drift against its tolerance first), and "statement" says the
    verdict with those, never a series that stayed within its tolerance ("drifting: p50 latency −35.7 %").
    """
    samples = list(samples or [])
    metric = interval_latency(samples)
    t_r, rate = _series(samples, "achieved_rate")
    t_l, lat = _series(samples, metric) if metric else (np.empty(0), np.empty(0))
    rate_slope, rate_drift = _trend(t_r, rate)
    lat_slope, lat_drift = _trend(t_l, lat)
    if rate.size < MIN_SAMPLES or rate_drift is None:
        verdict = "insufficient data"
    elif abs(rate_drift) > rate_tolerance_pct or (
        lat_drift is not None and abs(lat_drift) > latency_tolerance_pct
    ):
        verdict = "drifting"
    else:
        verdict = "stable"
    latency_metric = metric if lat_drift is not None else None
    drifted = [{"metric": name, "drift_pct": value, "tolerance_pct": tolerance}
               for name, value, tolerance in (("achieved_rate", rate_drift, rate_tolerance_pct),
                                              (latency_metric, lat_drift, latency_tolerance_pct))
               if verdict == "drifting" and value is not None and abs(value) > tolerance]
    drifted.sort(key=lambda d: -abs(d["drift_pct"]) / d["tolerance_pct"])
    return {
        "verdict": verdict,
        "drifted": drifted,
        "statement": stability_statement(verdict, drifted, rate.size),
        "rate_drift_pct": rate_drift,
        "latency_drift_pct": lat_drift,
        "latency_metric": latency_metric,
        "rate_slope_per_s": rate_slope,
        "latency_slope_ms_per_s": lat_slope,
        "samples": int(rate.size),
    }


DRIFT_WORDS = {"achieved_rate": "achieved rate", "latency_avg_ms": "mean latency", "latency_p50_ms": "p50 latency"}


def stability_statement(verdict: str, drifted: Sequence[dict], samples: int) -> str:
    """The stability card's words: the verdict with what drifted (last third against first), e.g. "drifting: p50 latency −35.7 %"."""
    if verdict == "insufficient data":
        return f"insufficient data: {samples} interval sample(s), {MIN_SAMPLES} needed"
    if not drifted:
        return verdict
    parts = [f"{DRIFT_WORDS.get(d['metric'], d['metric'])} {d['drift_pct']:+.1f} %".replace("-", "−") for d in drifted]
    return f"{verdict}: " + ", ".join(parts) + " (last third against first)"


def _noise(prev: Point, cur: Point, rel_tol: float, z: float) -> tuple[float, str]:
    a, b = prev["achieved_values"], cur["achieved_values"]
    if len(a) >= 2 and len(b) >= 2:
        se = math.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
        return z * se, "repeats"
    return rel_tol * prev["achieved_rate"], "tolerance"


def oscillation_details(
    points: Iterable[Point], *, rel_tol: float = 0.01, z: float = 1.96
) -> list[dict]:
    """Points of the sweep whose achieved rate fell although the offered load rose.

    Under open-loop load the achieved rate should never go down as the offered rate goes
    up; a drop between neighbouring points that exceeds their noise marks oscillation
    (the seed's "M-shaped" dip). Noise: with ≥ 2 repeats on both sides, z × the standard
    error of the difference of their means (the spread of repeats); otherwise, since a
    single run reports no spread of its rate (its stddev is latency's), rel_tol × the
    lower point's rate. Uses the saturation sweep, else scalability.

    Returns [{"offered_rate", "achieved_rate", "previous_offered_rate",
    "previous_achieved_rate", "drop", "noise", "noise_basis"}, …] for each flagged point.
    """
    _, sweep = sweep_points(points)
    pts = [p for p in sorted_by_load(aggregate(sweep)) if p["achieved_rate"] is not None]
    flagged = []
    for prev, cur in zip(pts, pts[1:]):
        if load_of(cur) <= load_of(prev):
            continue
        drop = prev["achieved_rate"] - cur["achieved_rate"]
        noise, basis = _noise(prev, cur, rel_tol, z)
        if drop > noise:
            flagged.append(
                {
                    "offered_rate": load_of(cur),
                    "achieved_rate": cur["achieved_rate"],
                    "previous_offered_rate": load_of(prev),
                    "previous_achieved_rate": prev["achieved_rate"],
                    "drop": drop,
                    "noise": noise,
                    "noise_basis": basis,
                }
            )
    return flagged


def oscillation(points: Iterable[Point], *, rel_tol: float = 0.01, z: float = 1.96) -> list[float]:
    """The offered rates flagged by :func:`oscillation_details`, lowest first."""
    return [d["offered_rate"] for d in oscillation_details(points, rel_tol=rel_tol, z=z)]
