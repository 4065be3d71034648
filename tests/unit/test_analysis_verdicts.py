"""Comparison verdicts: same setup → no detectable difference; doubled latency → worse; too few repetitions → not enough data;
every test of a comparison corrected together; a verdict follows the direction of its effect."""

from __future__ import annotations

import numpy as np
import pytest

from kneeboard.analysis.verdicts import (BETTER, FEW, MIXED, SAME, WORSE, benjamini_hochberg, compare, follow, overall, power_text,
                                         two_level, welch)

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


def test_benjamini_hochberg_step_up_as_scipy_makes_it():
    from scipy import stats

    assert benjamini_hochberg([0.01, None])[1] is None
    assert benjamini_hochberg([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.04, 0.04])
    p = np.random.default_rng(14).uniform(0, 0.2, 40) ** 2
    assert benjamini_hochberg(list(p)) == pytest.approx(list(stats.false_discovery_control(p, method="bh")))


def test_two_level_selects_families_then_tests_within_them():
    # one family alone is Benjamini–Hochberg within it
    assert two_level([[0.01, 0.04, 0.03]], 0.05) == [pytest.approx([0.03, 0.04, 0.04])]
    # four families, one selected (its Simes p 0.002 ≤ 0.05 · 1/4): its tests are scaled by M/R = 4
    adjusted = two_level([[0.001, 0.02], [0.3, 0.5], [0.04, None], [0.9]], 0.05)
    assert adjusted[0] == pytest.approx([0.008, 0.08]) and adjusted[2] == [pytest.approx(0.16), None]
    assert all(p >= 0.05 for family in adjusted[1:] for p in family if p is not None)


def test_a_capacity_is_corrected_with_the_points():
    rng = np.random.default_rng(13)
    result = compare(sweep(rng, 3), sweep(rng, 3), DIRECTIONS, also={"capacity": 0.03})
    assert result["tests"] == 2 * len(LOADS) + 1 and result["families"] == 3  # "sent" has no direction: no test
    assert compare([], [], DIRECTIONS, also={"capacity": 0.03})["also"] == {"capacity": 0.03}
    two = compare([], [], DIRECTIONS, also={"capacity": 0.03, "search": 0.5})["also"]
    assert two["capacity"] == pytest.approx(0.06), "0.03 alone is significant; the smaller of two p-values is not"


def test_a_worse_point_against_a_lower_mean_is_mixed_not_worse():
    """Latency 5 % higher at the lightest load (tightly measured: significant), 40 % lower everywhere else (too noisy to
    be significant): the metric went down, so it is not "worse"."""
    a, b = [], []
    for concurrency, rate in LOADS:
        for repeat, wobble in enumerate((-1.0, 0.0, 1.0)):
            spread = 0.001 if concurrency == 1 else 0.6
            common = {"phase": "scalability", "concurrency": concurrency, "offered_rate": rate, "repeat": repeat, "status": "completed"}
            a.append({**common, "latency_avg_ms": 1.0 + spread * wobble})
            b.append({**common, "latency_avg_ms": (1.05 if concurrency == 1 else 0.6) * (1.0 + spread * wobble)})
    result = compare(a, b, {"latency_avg_ms": -1})
    verdicts = [row["latency_avg_ms"]["verdict"] for row in result["points"]]
    assert verdicts[0] == WORSE and set(verdicts[1:]) == {SAME}
    metric = result["overall"]["latency_avg_ms"]
    assert metric["verdict"] == MIXED and metric["worse"] == 1 and metric["effect"] < 0, metric
    assert "significantly worse, while the mean over the points tested is lower" in metric["detail"]
    # read at the lightest load alone, the same points say worse, and the effect agrees
    assert overall(result["points"], "latency_avg_ms", -1, at={("scalability", 1, 1000.0)})["verdict"] == WORSE


def test_follow_keeps_a_verdict_that_agrees_with_its_change():
    assert follow(WORSE, +3.0, -1) == WORSE and follow(WORSE, -3.0, -1) == MIXED
    assert follow(BETTER, +3.0, +1) == BETTER and follow(BETTER, -3.0, +1) == MIXED
    assert follow(SAME, -3.0, +1) == SAME and follow(WORSE, None, -1) == WORSE


def test_a_large_detectable_change_reads_as_more_than_100_percent():
    assert power_text(1440.0, 0.95) == "smallest detectable change > 100 % (α = 0.05, power 0.8)"
    assert power_text(3.14159, 0.95).startswith("smallest detectable change 3.14 %")
    assert power_text(0.0001, 0.95).startswith("smallest detectable change < 0.01 %")
