"""Capacity verdicts: ≥ 3 repetitions a side, equivalence within the margin, bounds said as bounds."""

from __future__ import annotations

import numpy as np

from kneeboard.analysis import capacity_at_slo
from kneeboard.analysis.capacity_verdict import capacity_verdict
from kneeboard.analysis.verdicts import BETTER, EQUIVALENT, FEW, SAME, WORSE


def sweep(rng: np.random.Generator, repeats: int, knee: float, top: float = 4000.0, noise: float = 0.005) -> list[dict]:
    """A dnsperf-like sweep to `top`: latency 0.2 ms, rising past `knee` q/s (5 µs a q/s); `noise` on the latency."""
    points = []
    for repeat in range(repeats):
        for rate in np.arange(500.0, top + 1, 500.0):
            latency = (0.2 + max(0.0, rate - knee) * 0.005) * (1 + rng.normal(0, noise))
            points.append({"phase": "saturation", "concurrency": 1, "offered_rate": rate, "achieved_rate": rate, "repeat": repeat,
                           "latency_avg_ms": latency, "status": "completed", "variant": None})  # fmt: skip
    return points


def reps(points: list[dict]) -> list[dict]:
    return capacity_at_slo(points, limit_ms=1.0, n_resamples=10)["per_repeat"]


def test_identical_campaigns_swept_below_capacity_two_repetitions_are_not_enough_data():
    rng = np.random.default_rng(1)
    a, b = reps(sweep(rng, 2, knee=10_000)), reps(sweep(rng, 2, knee=10_000))
    result = capacity_verdict(a, b, unit="q/s")
    assert result["verdict"] == FEW and "≥ 3 repetitions" in result["detail"]


def test_both_sides_held_at_every_load_say_only_so():
    rng = np.random.default_rng(2)
    a, b = reps(sweep(rng, 5, knee=10_000)), reps(sweep(rng, 5, knee=10_000))
    assert {r["kind"] for r in a + b} == {"at_least"}
    result = capacity_verdict(a, b, unit="q/s")
    assert result["verdict"] == FEW
    assert result["detail"].startswith("both ≥ the range tested (≥ 4,000 q/s, ≥ 4,000 q/s); widen the range")


def test_identical_campaigns_with_five_repetitions_are_equivalent_or_state_what_they_could_detect():
    rng = np.random.default_rng(3)
    a, b = reps(sweep(rng, 5, knee=2_000)), reps(sweep(rng, 5, knee=2_000))
    result = capacity_verdict(a, b, unit="q/s")
    assert result["verdict"] in (EQUIVALENT, SAME)
    assert "smallest detectable change" in result["detail"] and "α = 0.05, power 0.8" in result["detail"]
    if result["verdict"] == EQUIVALENT:
        assert result["detail"].startswith("equivalent within ±2 %")


def test_noisy_identical_campaigns_are_no_detectable_difference_not_equivalent():
    rng = np.random.default_rng(4)
    a, b = reps(sweep(rng, 5, knee=2_000, noise=0.3)), reps(sweep(rng, 5, knee=2_000, noise=0.3))
    result = capacity_verdict(a, b, margin_pct=0.5)
    assert result["verdict"] == SAME and result["detectable_pct"] > 0.5
    assert result["detail"].startswith("the interval is wider than ±0.5 %")


def test_a_ten_percent_capacity_change_is_found_with_five_repetitions():
    rng = np.random.default_rng(5)
    a, b = reps(sweep(rng, 5, knee=2_000)), reps(sweep(rng, 5, knee=2_200))
    assert capacity_verdict(a, b)["verdict"] == BETTER
    assert capacity_verdict(b, a)["verdict"] == WORSE


def test_a_bound_on_one_side_allows_one_conclusion_only():
    rng = np.random.default_rng(6)
    held, broke = reps(sweep(rng, 3, knee=10_000)), reps(sweep(rng, 3, knee=2_000))
    assert capacity_verdict(held, broke)["verdict"] == WORSE  # ≥ 4,000 against about 2,160: certainly lower
    assert capacity_verdict(broke, held)["verdict"] == BETTER
    near = reps(sweep(rng, 3, knee=3_600, top=5_000))  # broke at about 3,660: above the other side's bound
    higher_top = reps(sweep(rng, 3, knee=10_000, top=3_500))  # held to 3,500 only
    result = capacity_verdict(higher_top, near, unit="q/s")
    assert result["verdict"] == FEW and "only a bound (≥ 3,500 q/s)" in result["detail"]
