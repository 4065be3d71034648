"""Universal Scalability Law (Gunther) and Amdahl fits on scalability points.

    X(N) = λ·N / (1 + σ(N − 1) + κ·N(N − 1))

σ is contention (queueing on a shared resource), κ coherency (crosstalk), λ the
throughput of one client with no contention. Amdahl's law is the κ = 0 case with
parallel fraction p = 1 − σ.

Rate-limited points. In a scalability sweep the load generator paces each client
(offered rate = concurrency × unit rate). While the system keeps up, the achieved rate
simply equals that pace: the point shows the plan's pace, not the system's limit, and
only says "the system can do *at least* this much". The fit therefore treats every
point with an offered rate as a *censored* observation: the model's prediction for it
is min(offered_rate, X(N)). A point the curve can exceed costs nothing (it is a lower
bound on the curve, which bounds λ from below), while a point that fell short of its
offered rate is fitted as usual. Rate-limited points can thus never drag λ down to the
unit rate nor flatten the curve. Points without an offered rate (closed-loop tools)
are fitted directly. R² is computed over all fitted points with these censored
predictions.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable

import numpy as np
from scipy.optimize import OptimizeWarning, curve_fit

from .points import Point, finite, of_phase

# A point counts as saturated (informative beyond a lower bound) below this efficiency.
SATURATED_BELOW = 0.99
MIN_SATURATED_POINTS = 3
KAPPA_ZERO = 1e-12


def usl_throughput(n, sigma: float, kappa: float, lambda_: float):
    """X(N) of the Universal Scalability Law (works on floats and numpy arrays)."""
    n = np.asarray(n, dtype=float)
    return lambda_ * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))


def usl_peak(sigma: float, kappa: float, lambda_: float) -> tuple[float | None, float | None]:
    """(N*, X(N*)): the concurrency of peak throughput and that throughput.

    N* = sqrt((1 − σ)/κ). With κ ≈ 0 there is no peak: N* is None and the rate is the
    asymptote λ/σ (None when σ is 0 too: the model is unbounded). With σ ≥ 1, or N* < 1,
    the peak is at N = 1.
    """
    if kappa <= KAPPA_ZERO:
        return None, (lambda_ / sigma if sigma > 0 else None)
    if sigma >= 1.0:
        return 1.0, lambda_
    n_star = max(1.0, math.sqrt((1.0 - sigma) / kappa))
    return n_star, float(usl_throughput(n_star, sigma, kappa, lambda_))


def _data(points: Iterable[Point]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = []
    for p in points:
        n = finite(p.get("concurrency"))
        x = finite(p.get("achieved_rate"))
        if n is None or x is None or n < 1:
            continue
        offered = finite(p.get("offered_rate"))
        rows.append((n, x, offered if offered is not None and offered > 0 else math.inf))
    if not rows:
        return np.empty(0), np.empty(0), np.empty(0)
    arr = np.array(rows, dtype=float)
    return arr[:, 0], arr[:, 1], arr[:, 2]


def _fit(n, x, cap, *, with_kappa: bool, censor: bool):
    """Least-squares fit from several starting points; returns (params, predictions) or None."""
    per_client = float(np.max(x / n))
    lam_hi = 1000.0 * per_client
    if with_kappa:

        def model(xdata, sigma, kappa, lambda_):
            nn, cc = xdata
            y = usl_throughput(nn, sigma, kappa, lambda_)
            return np.minimum(cc, y) if censor else y

        lower, upper = [0.0, 0.0, 1e-9], [1.0, 1.0, lam_hi]
        kappa0 = 1.0 / max(float(np.max(n)), 2.0) ** 2
        starts = [
            [s, kk, lam]
            for s in (0.01, 0.1, 0.5)
            for kk in (kappa0 * 0.01, kappa0)
            for lam in (per_client, 2.0 * per_client)
        ]
    else:

        def model(xdata, sigma, lambda_):
            nn, cc = xdata
            y = usl_throughput(nn, sigma, 0.0, lambda_)
            return np.minimum(cc, y) if censor else y

        lower, upper = [0.0, 1e-9], [1.0, lam_hi]
        starts = [[s, lam] for s in (0.01, 0.1, 0.5) for lam in (per_client, 2.0 * per_client)]

    # curve_fit refuses non-finite data: an uncapped (closed-loop) point gets the largest float
    xdata = np.vstack([n, np.where(np.isfinite(cap), cap, np.finfo(float).max)])
    best = None
    for p0 in starts:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", OptimizeWarning)
                warnings.simplefilter("ignore", RuntimeWarning)
                params, _ = curve_fit(
                    model, xdata, x, p0=p0, bounds=(lower, upper), maxfev=20000
                )
        except (RuntimeError, ValueError):
            continue
        pred = model(xdata, *params)
        cost = float(np.sum((x - pred) ** 2))
        if math.isfinite(cost) and (best is None or cost < best[0]):
            best = (cost, params, pred)
    if best is None:
        return None
    return best[1], best[2]


def _r2(x: np.ndarray, pred: np.ndarray) -> float | None:
    ss_tot = float(np.sum((x - np.mean(x)) ** 2))
    if ss_tot <= 0:
        return None
    return 1.0 - float(np.sum((x - pred) ** 2)) / ss_tot


def _empty(note: str) -> dict:
    return {
        "sigma": None,
        "kappa": None,
        "lambda_": None,
        "peak_concurrency": None,
        "peak_rate": None,
        "r2": None,
        "amdahl_p": None,
        "note": note,
        "rate_limited_points": None,
        "points": None,
    }


def _not_reached(saturated: int, total: int, generator_limited: int) -> str:
    """Why the sweep did not reach the system's capacity, true of the points: they kept up with the plan's pace; the
    generator is named only for points it really did not send (`generator_limited`, left out before the fit)."""
    kept = total - saturated
    note = (f"USL not fitted: only {saturated} of {total} scalability point(s) fell short of their offered rate; the other "
            f"{kept} kept up with the pace the plan set (concurrency × unit rate), so the sweep stayed below the system's "
            "capacity (raise the unit rate or the concurrency).")
    return note + _left_out(generator_limited)


def _left_out(generator_limited: int) -> str:
    """The sentence for scalability points the generator did not send (left out of the fit), or nothing."""
    if not generator_limited:
        return ""
    return (f" {generator_limited} more point(s) were left out: the load generator did not send their load "
            "(see the points it did not send).")


def fit_usl(points: Iterable[Point], *, censor: bool = True, generator_limited: int = 0) -> dict | None:
    """Fit the USL (and Amdahl) to the completed scalability points.

    Uses scipy.optimize.curve_fit with σ, κ ∈ [0, 1] and λ > 0, from several starting
    values, keeping the lowest squared error. With censor=True (the default, see the
    module docstring) a point's prediction is min(offered_rate, X(N)), so points paced
    by the load generator act only as lower bounds; censor=False fits X(N) to every
    point as if it were a measurement of capacity (kept to show the difference).

    Returns {"sigma", "kappa", "lambda_", "peak_concurrency", "peak_rate", "r2",
    "amdahl_p", "note", "rate_limited_points", "points"}; None when there is no
    scalability point. When the sweep cannot support a fit (fewer than 3 distinct
    concurrencies, or fewer than 3 points below 99 % efficiency) the numbers are None
    and "note" says why; `generator_limited` is how many scalability points were left out
    because the generator did not send them (only then does the note name the generator).
    """
    n, x, cap = _data(of_phase(points, "scalability"))
    if n.size == 0:
        return None
    if np.unique(n).size < 3:
        return _empty("USL not fitted: fewer than 3 distinct concurrency levels." + _left_out(generator_limited))
    saturated = int(np.sum(x < SATURATED_BELOW * cap))
    if censor and saturated < MIN_SATURATED_POINTS:
        return _empty(_not_reached(saturated, int(n.size), generator_limited))
    fitted = _fit(n, x, cap, with_kappa=True, censor=censor)
    if fitted is None:
        return _empty("USL not fitted: the least-squares fit did not converge." + _left_out(generator_limited))
    (sigma, kappa, lambda_), pred = fitted
    sigma, kappa, lambda_ = float(sigma), float(kappa), float(lambda_)
    if kappa <= KAPPA_ZERO:
        kappa = 0.0
    peak_n, peak_x = usl_peak(sigma, kappa, lambda_)
    amdahl = _fit(n, x, cap, with_kappa=False, censor=censor)
    amdahl_p = 1.0 - float(amdahl[0][0]) if amdahl is not None else None
    limited = int(np.sum(np.isfinite(cap) & (usl_throughput(n, sigma, kappa, lambda_) >= cap)))
    if censor:
        note = (
            f"{limited} of {n.size} points kept up with their offered rate, the pace the plan set "
            "(the fitted curve lies above it); they enter the fit as "
            "censored lower bounds, min(offered, X(N)), so they bound λ from below but "
            "cannot pull the curve down. R² uses the censored predictions of all points."
        )
    else:
        note = "Every point fitted as a capacity measurement (no censoring of rate-limited points)."
    lowest = float(np.min(n))
    if np.any(np.isfinite(cap) & (n == lowest) & (usl_throughput(n, sigma, kappa, lambda_) >= cap)):
        note += (
            " The lowest concurrencies were among them, so λ is bounded only from below and "
            "rests on the curvature of the saturated points; σ and λ trade off, the peak is "
            "the robust figure."
        )
    if kappa == 0.0:
        note += " κ ≈ 0: no retrograde region; the peak rate is the asymptote λ/σ."
    if lambda_ >= 0.999 * 1000.0 * float(np.max(x / n)):
        note += " λ hit its upper bound: the data do not pin it down."
    note += _left_out(generator_limited)
    return {
        "sigma": sigma,
        "kappa": kappa,
        "lambda_": lambda_,
        "peak_concurrency": peak_n,
        "peak_rate": peak_x,
        "r2": _r2(x, pred),
        "amdahl_p": amdahl_p,
        "note": note,
        "rate_limited_points": limited,
        "points": int(n.size),
    }
