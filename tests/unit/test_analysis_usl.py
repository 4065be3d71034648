"""USL and Amdahl fits on synthetic data with known parameters."""

import math

import numpy as np
import pytest

from kneeboard.analysis import fit_usl, usl_peak, usl_throughput

SIGMA, KAPPA, LAMBDA = 0.05, 0.001, 1000.0
LEVELS = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64]


def synthetic(noise=0.01, unit_rate=None, seed=7):
    rng = np.random.default_rng(seed)
    points = []
    for n in LEVELS:
        x = float(usl_throughput(n, SIGMA, KAPPA, LAMBDA)) * (1 + rng.normal(0, noise))
        offered = None if unit_rate is None else unit_rate * n
        if offered is not None:
            x = min(x, offered)
        points.append({
            "phase": "scalability", "concurrency": n, "offered_rate": offered, "achieved_rate": x,
            "latency_avg_ms": None, "repeat": 0, "status": "completed", "variant": None,
        })
    return points


def test_known_parameters_are_recovered():
    usl = fit_usl(synthetic())
    assert usl["sigma"] == pytest.approx(SIGMA, abs=0.01)
    assert usl["kappa"] == pytest.approx(KAPPA, rel=0.1)
    assert usl["lambda_"] == pytest.approx(LAMBDA, rel=0.05)
    true_n, true_x = usl_peak(SIGMA, KAPPA, LAMBDA)
    assert usl["peak_concurrency"] == pytest.approx(true_n, rel=0.1)
    assert usl["peak_rate"] == pytest.approx(true_x, rel=0.03)
    assert usl["r2"] > 0.99


def test_rate_limited_synthetic_data_are_still_recovered():
    # each client paced at 700/s: up to c = 8 the generator, not the system, sets the rate
    usl = fit_usl(synthetic(unit_rate=700.0))
    assert usl["lambda_"] == pytest.approx(LAMBDA, rel=0.05)
    assert usl["sigma"] == pytest.approx(SIGMA, abs=0.02)
    assert usl["kappa"] == pytest.approx(KAPPA, rel=0.15)
    assert usl["rate_limited_points"] >= 4


def test_uncensored_fit_of_rate_limited_data_is_biased():
    naive = fit_usl(synthetic(unit_rate=700.0), censor=False)
    assert abs(naive["lambda_"] - LAMBDA) / LAMBDA > 0.1


def test_amdahl_p_matches_a_pure_amdahl_system():
    points = [
        {"phase": "scalability", "concurrency": n, "offered_rate": None,
         "achieved_rate": float(usl_throughput(n, 0.1, 0.0, 500.0)), "status": "completed"}
        for n in LEVELS
    ]
    usl = fit_usl(points)
    assert usl["amdahl_p"] == pytest.approx(0.9, abs=0.01)
    assert usl["kappa"] == pytest.approx(0.0, abs=1e-6)


def test_peak_formula_and_kappa_zero():
    n, x = usl_peak(0.05, 0.001, 1000.0)
    assert n == pytest.approx(math.sqrt(0.95 / 0.001))
    assert x == pytest.approx(float(usl_throughput(n, 0.05, 0.001, 1000.0)))
    assert usl_peak(0.1, 0.0, 500.0) == (None, pytest.approx(5000.0))
    assert usl_peak(0.0, 0.0, 500.0) == (None, None)
    assert usl_peak(1.0, 0.01, 500.0) == (1.0, 500.0)


def test_no_scalability_phase_gives_none():
    assert fit_usl([{"phase": "saturation", "concurrency": 20, "achieved_rate": 1.0, "status": "completed"}]) is None


def test_sweep_that_never_saturated_is_not_fitted():
    points = [
        {"phase": "scalability", "concurrency": n, "offered_rate": 100.0 * n,
         "achieved_rate": 100.0 * n, "status": "completed"}
        for n in (1, 2, 4, 8)
    ]
    usl = fit_usl(points)
    assert usl["sigma"] is None and usl["peak_rate"] is None
    # the points kept up with the plan's pace: the note says so, and names no generator (none was left out)
    assert "kept up" in usl["note"] and "generator" not in usl["note"]
    assert "2 more point(s) were left out: the load generator did not send" in fit_usl(points, generator_limited=2)["note"]


def test_failed_points_are_ignored():
    points = synthetic()
    points.append({"phase": "scalability", "concurrency": 3, "offered_rate": None,
                   "achieved_rate": 1.0, "status": "failed"})
    assert fit_usl(points)["points"] == len(LEVELS)
