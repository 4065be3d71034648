"""E-Divisive means on synthetic series of known change points (5 % shifts in 2 % noise, fixed seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from kneeboard.analysis.changepoints import e_divisive

CV, SHIFT, LENGTH, GAP = 0.02, 0.05, 60, 12


def _series(rng: np.random.Generator, changes: int) -> tuple[np.ndarray, list[int]]:
    """A nightly capacity series around 10,000 with `changes` shifts of ±5 % at least GAP campaigns apart."""
    while True:
        where = sorted(int(i) for i in rng.choice(np.arange(GAP // 2 + 2, LENGTH - GAP // 2 - 1), size=changes, replace=False))
        if all(b - a >= GAP for a, b in zip(where, where[1:])):
            break
    level = np.full(LENGTH, 10_000.0)
    for i in where:
        level[i:] *= 1 + rng.choice([-1, 1]) * SHIFT
    return level * (1 + CV * rng.standard_normal(LENGTH)), where


def _score(found: list[int], truth: list[int]) -> tuple[int, int, int]:
    """True positives (within ±1 campaign, each true change matched once), false positives, misses."""
    matched: set[int] = set()
    for index in found:
        near = [t for t in truth if abs(t - index) <= 1 and t not in matched]
        if near:
            matched.add(near[0])
    tp = len(matched)
    return tp, len(found) - tp, len(truth) - tp


def test_known_shifts_are_found_at_the_right_campaign():
    tp = fp = fn = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        series, truth = _series(rng, int(rng.integers(1, 4)))
        a, b, c = _score([change.index for change in e_divisive(series)], truth)
        tp, fp, fn = tp + a, fp + b, fn + c
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert precision >= 0.9 and recall >= 0.9, (precision, recall, tp, fp, fn)


def test_series_without_change_rarely_show_one():
    with_change = sum(bool(e_divisive(10_000 * (1 + CV * np.random.default_rng(1000 + seed).standard_normal(LENGTH)))) for seed in range(30))
    assert with_change <= 2


def test_a_change_carries_its_size_and_interval():
    rng = np.random.default_rng(5)
    series = 10_000 * (1 + CV * rng.standard_normal(40))
    series[20:] *= 0.95
    (change,) = e_divisive(series)
    assert change.index == 20 and change.pvalue < 0.001
    assert change.ci_low < change.diff < change.ci_high < 0
    assert change.change_pct == pytest.approx(-5, abs=1.5)
    assert e_divisive(series) == [change]  # seeded: the same answer every time


def test_short_or_flat_series_have_none_and_bad_input_is_refused():
    assert e_divisive([1.0, 2.0, 3.0]) == []
    assert e_divisive([5.0] * 30) == []
    with pytest.raises(ValueError):
        e_divisive([1.0, float("nan"), 2.0])
