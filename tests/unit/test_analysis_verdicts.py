"""Comparison verdicts: same setup → no detectable difference; doubled latency → worse; too few repetitions → not enough data."""

from __future__ import annotations

import numpy as np
import pytest

from kneeboard.analysis.verdicts import BETTER, FEW, MIXED, SAME, WORSE, compare, holm, welch

DIRECTIONS = {"achieved_rate": +1, "latency_avg_ms": -1, "sent": None}
LOADS = [(c, 1000.0 * c) for c in (1, 2, 4, 8, 16)]


def sweep(rng: np.random.Generator, repeats: int, latency_factor: float = 1.0, noise: float = 0.05) -> list[dict]:
    """A five-load sweep; each repetition's figures drawn around the same truth (5 % noise)."""
    points = []
    for concurrency, rate in LOADS:
        for repeat in range(repeats):
            points.append({"phase": "scalability", "concurrency": concurrency, "offered_rate": rate, "repeat": repeat,
                           "status": "completed", "variant": None,
                           "achieved_rate": rate * (1 + rng.normal(0, noise / 5)),
                           "latency_avg_ms": latency_factor * 0.4 * (1 + concurrency / 16) * (1 + rng.normal(0, noise)),
                           "sent": rate * 2})  # fmt: skip
    return points


def test_same_setup_is_no_detectable_difference_in_at_least_95_percent_of_seeds():
    runs, metrics = 400, ("achieved_rate", "latency_avg_ms")
    same = {m: 0 for m in metrics}
    for seed in range(runs):
        rng = np.random.default_rng(seed)
        result = compare(sweep(rng, 3), sweep(rng, 3), DIRECTIONS)
        for m in metrics:
            same[m] += result["overall"][m]["verdict"] == SAME
    print(f"\nsame setup, 3 repetitions a side, {runs} seeds: 'no detectable difference' {same}")
    assert all(count / runs >= 0.95 for count in same.values())


def test_doubled_latency_is_worse_with_three_repetitions():
    rng = np.random.default_rng(7)
    result = compare(sweep(rng, 3), sweep(rng, 3, latency_factor=2.0), DIRECTIONS)
    overall = result["overall"]["latency_avg_ms"]
    assert overall["verdict"] == WORSE and overall["worse"] == len(LOADS)
    row = result["points"][0]["latency_avg_ms"]
    assert row["ci_low"] > 0 and row["change_pct"] == pytest.approx(100, abs=15)
    assert result["overall"]["achieved_rate"]["verdict"] == SAME


def test_halved_latency_is_better():
    rng = np.random.default_rng(8)
    assert compare(sweep(rng, 4), sweep(rng, 4, latency_factor=0.5), DIRECTIONS)["overall"]["latency_avg_ms"]["verdict"] == BETTER


def test_two_repetitions_are_not_enough_data():
    rng = np.random.default_rng(9)
    result = compare(sweep(rng, 2), sweep(rng, 2, latency_factor=2.0), DIRECTIONS)
    assert result["overall"]["latency_avg_ms"]["verdict"] == FEW
    assert all(row["latency_avg_ms"]["verdict"] == FEW for row in result["points"])


def test_a_metric_without_direction_gets_no_verdict():
    rng = np.random.default_rng(10)
    assert compare(sweep(rng, 3), sweep(rng, 3), DIRECTIONS)["overall"]["sent"]["verdict"] == FEW


def test_mixed_results_say_so():
    rng = np.random.default_rng(11)
    a, b = sweep(rng, 3), sweep(rng, 3)
    for p in b:
        p["latency_avg_ms"] *= 2.0 if p["concurrency"] == 1 else 0.5 if p["concurrency"] == 16 else 1.0
    assert compare(a, b, DIRECTIONS)["overall"]["latency_avg_ms"]["verdict"] == MIXED


def test_unsteady_points_stay_out():
    rng = np.random.default_rng(12)
    a, b = sweep(rng, 3), sweep(rng, 3, latency_factor=2.0)
    for p in b:
        p["unsteady"] = True
    assert compare(a, b, DIRECTIONS)["points"] == []


def test_welch_against_scipy_and_zero_spread():
    from scipy import stats

    a, b = [1.0, 1.2, 0.9, 1.1], [1.5, 1.4, 1.7]
    assert welch(a, b)["p"] == pytest.approx(stats.ttest_ind(b, a, equal_var=False).pvalue)
    assert welch([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])["p"] == 1.0
    assert welch([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])["p"] == 0.0


def test_holm_step_down():
    assert holm([0.01, None])[1] is None
    adjusted = holm([0.01, 0.04, 0.03])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06])
