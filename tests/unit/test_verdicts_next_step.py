"""An undecided verdict's next step (issue 47, item 5): from the spread measured, the repetitions a side that would
detect a 10 % change, and the change the campaign could have detected.

Two campaigns of known spread (each point's repetitions are m − d, m, m + d: sample sd exactly d) are compared; the
repetitions the next step gives match the standard two-sample power formula computed here independently (equal
variances: df = 2n − 2, the t quantiles iterated from the normal approximation), and a simulation that draws that many
repetitions with that spread and a true 10 % change detects it in about 80 % of draws."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from kneeboard.analysis.capacity_verdict import capacity_verdict
from kneeboard.analysis.verdicts import FEW, SAME, compare, next_step_of, repetitions_for

ALPHA, POWER = 0.05, 0.8
MEAN, SD = 1000.0, 80.0  # an 8 % spread: a 10 % change needs more than the 3 repetitions measured


def campaign(mean: float, sd: float, repeats: int = 3, loads: tuple[float, ...] = (1000.0, 2000.0)) -> list[dict]:
    """Points whose repetitions at each load are mean − sd·k, …, mean + sd·k with a sample sd of exactly `sd`."""
    offsets = np.arange(repeats) - (repeats - 1) / 2
    offsets = offsets / offsets.std(ddof=1) if repeats > 1 else offsets
    return [{"phase": "saturation", "concurrency": 1, "offered_rate": load, "repeat": r, "status": "completed", "variant": None,
             "achieved_rate": mean + sd * offsets[r]} for load in loads for r in range(repeats)]  # fmt: skip


def independent_n(sd: float, delta: float) -> int:
    """The textbook formula: n = 2((z_{1−α/2} + z_{1−β}) sd / δ)², then the t quantiles at df = 2n − 2 until it holds."""
    n = math.ceil(2 * ((stats.norm.ppf(1 - ALPHA / 2) + stats.norm.ppf(POWER)) * sd / delta) ** 2)
    while (stats.t.ppf(1 - ALPHA / 2, 2 * n - 2) + stats.t.ppf(POWER, 2 * n - 2)) * sd * math.sqrt(2 / n) > delta:
        n += 1
    return n


def test_the_comparison_of_two_campaigns_of_known_spread_says_the_repetitions_that_would_decide_a_10_percent_change():
    result = compare(campaign(MEAN, SD), campaign(MEAN * 1.03, SD), {"achieved_rate": +1})
    verdict = result["overall"]["achieved_rate"]
    assert verdict["verdict"] == SAME
    step = verdict["next_step"]
    expected = independent_n(SD, 0.10 * MEAN)
    assert step["repetitions"] == expected and step["now"] == 3 and step["change_pct"] == 10
    # the change these 3 repetitions could detect: (t_{.975,4} + t_{.8,4}) · sd · √(2/3), in % of A's mean
    could = (stats.t.ppf(0.975, 4) + stats.t.ppf(0.8, 4)) * SD * math.sqrt(2 / 3) / MEAN * 100
    assert step["detectable_pct"] == pytest.approx(could, rel=1e-9)
    assert f"{expected} repetitions a side" in step["text"] and "now 3" in step["text"]
    normal = 2 * ((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * SD / (0.1 * MEAN)) ** 2
    assert normal <= expected <= normal + 3  # the t correction adds a repetition or two at this size
    print(f"\nfigures: sd {SD / MEAN:.0%} of the mean: {expected} repetitions a side for 10 % (normal approximation {normal:.1f}); "
          f"3 could detect {could:.1f} %")


def exact_power(n: int, sd: float, delta: float) -> float:
    """The two-sided t-test's power at n a side, from the noncentral t distribution (df = 2n − 2)."""
    df, nc = 2 * n - 2, delta / (sd * math.sqrt(2 / n))
    crit = stats.t.ppf(1 - ALPHA / 2, df)
    return float(stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc))


def test_a_simulation_with_the_suggested_repetitions_detects_the_change_about_80_percent_of_the_time():
    """Draws n repetitions a side from normals of sd SD around MEAN and MEAN × 1.1; Welch's test at α = 0.05.
    4,000 draws: the detection rate's standard error is √(0.8·0.2/4000) ≈ 0.6 %. n is the first whole number whose
    power reaches 0.8 (exactly, by the noncentral t: 0.833 at n = 12, 0.796 at 11), so the rate lies in [0.78, 0.86]
    (0.8 and the next n's step of ~4 points, ± 3 standard errors)."""
    n = repetitions_for(SD, SD, 0.10 * MEAN, confidence=1 - ALPHA)
    assert exact_power(n, SD, 0.1 * MEAN) >= POWER > exact_power(n - 1, SD, 0.1 * MEAN)
    rng = np.random.default_rng(47)
    a = rng.normal(MEAN, SD, size=(4000, n))
    b = rng.normal(MEAN * 1.10, SD, size=(4000, n))
    rate = float(np.mean(stats.ttest_ind(a, b, axis=1, equal_var=False).pvalue < ALPHA))
    fewer = float(np.mean(stats.ttest_ind(a[:, : n - 2], b[:, : n - 2], axis=1, equal_var=False).pvalue < ALPHA))
    print(f"\nfigures: n = {n}: detected {rate:.1%}; with n − 2: {fewer:.1%}")
    assert 0.78 <= rate <= 0.86
    assert fewer < rate


def test_unequal_spreads_and_the_least_sensitive_point_decide_the_repetitions():
    """A's spread 5 %, B's 10 % at one load; at the other both 2 %: the row asks for what the noisier load needs."""
    a = campaign(MEAN, 50.0, loads=(1000.0,)) + campaign(MEAN, 20.0, loads=(2000.0,))
    b = campaign(MEAN, 100.0, loads=(1000.0,)) + campaign(MEAN, 20.0, loads=(2000.0,))
    step = compare(a, b, {"achieved_rate": +1})["overall"]["achieved_rate"]["next_step"]
    # Welch with unequal variances: the n with (t_{.975,ν} + t_{.8,ν}) √((sa² + sb²)/n) ≤ δ, ν = (n−1)(sa²+sb²)²/(sa⁴+sb⁴)
    va, vb, delta = 50.0**2, 100.0**2, 0.1 * MEAN
    n = 3
    while (stats.t.ppf(0.975, (n - 1) * (va + vb) ** 2 / (va**2 + vb**2)) + stats.t.ppf(0.8, (n - 1) * (va + vb) ** 2 / (va**2 + vb**2))) \
            * math.sqrt((va + vb) / n) > delta:
        n += 1
    assert step["repetitions"] == n and "least sensitive of 2 matched points" in step["text"]


def test_enough_repetitions_say_so_and_one_repetition_asks_for_a_spread_first():
    calm = next_step_of([MEAN - 5, MEAN, MEAN + 5], [MEAN - 5, MEAN, MEAN + 5])
    assert calm["repetitions"] == 3 and "already detect a 10 % change" in calm["text"]
    single = compare(campaign(MEAN, SD, repeats=1), campaign(MEAN, SD, repeats=1), {"achieved_rate": +1})["overall"]["achieved_rate"]
    assert single["verdict"] == FEW and single["next_step"]["repetitions"] is None and "repeat each point" in single["next_step"]["text"]


def test_an_undecided_capacity_says_its_next_step_from_the_per_repetition_capacities():
    reps = lambda mean: [{"kind": "between", "value": mean + SD * k} for k in (-1, 0, 1)]  # noqa: E731
    verdict = capacity_verdict(reps(MEAN), reps(MEAN * 1.02))
    assert verdict["verdict"] == SAME and verdict["next_step"]["repetitions"] == independent_n(SD, 0.1 * MEAN)
    few = capacity_verdict(reps(MEAN)[:2], reps(MEAN)[:2])
    assert few["verdict"] == FEW and few["next_step"]["repetitions"] is not None
