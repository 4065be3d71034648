"""Steady state: a point's interval series with its warm-up trimmed, and whether what is left is steady.

A point whose rate wanders (coefficient of variation above MAX_CV) or trends (a fitted slope
moving it by more than MAX_TREND_PCT across the window) is flagged "unsteady" and kept out of
comparison verdicts. Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MAX_CV = 0.15
MAX_TREND_PCT = 10.0
MIN_INTERVALS = 3


def steady_window(series: Sequence[tuple[float, float | None]], warmup_s: float) -> dict | None:
    """Judge the (t, value) intervals after the first `warmup_s` seconds; None with too few to judge.

    Returns {"warmup_s", "intervals", "mean", "cv", "trend_pct", "unsteady", "reason"}.
    """
    points = sorted((t, v) for t, v in series if v is not None and np.isfinite(v))
    if not points:
        return None
    start = points[0][0]
    kept = [(t, v) for t, v in points if t - start >= warmup_s]
    if len(kept) < MIN_INTERVALS:
        return None
    t = np.array([p[0] for p in kept]) - kept[0][0]
    v = np.array([p[1] for p in kept], dtype=float)
    mean = float(v.mean())
    cv = float(v.std(ddof=1) / mean) if mean else 0.0
    slope = float(np.polyfit(t, v, 1)[0]) if t[-1] > 0 else 0.0
    trend_pct = slope * float(t[-1]) / mean * 100.0 if mean else 0.0
    reasons = []
    if cv > MAX_CV:
        reasons.append(f"the rate varies by {cv:.0%} between intervals (more than {MAX_CV:.0%})")
    if abs(trend_pct) > MAX_TREND_PCT:
        reasons.append(f"the rate drifts {trend_pct:+.0f} % across the point (more than ±{MAX_TREND_PCT:g} %)")
    return {"warmup_s": warmup_s, "intervals": len(kept), "mean": mean, "cv": cv, "trend_pct": trend_pct,
            "unsteady": bool(reasons), "reason": "; ".join(reasons) or None}  # fmt: skip
