"""E-Divisive means on Apache Otava's own test-data generators (otava-test-data): steps and multiple changes of
known index in normal noise, and noise with no change; precision and recall at the right campaign ±1."""

from __future__ import annotations

import numpy as np
from otava_test_data import multiple_changes, noise_normal, step_function

from kneeboard.analysis.changepoints import e_divisive
from tests.unit.test_analysis_changepoints import _score

LENGTH, SIGMA = 60, 2.0  # 60 nightly campaigns around 100 with 2 % noise; changes of 5 %


def _step(seed: int):
    rng = np.random.default_rng(seed)
    return step_function(LENGTH, 100.0, 100.0 * (1 + rng.choice([-0.05, 0.05])), change_index=int(rng.integers(10, LENGTH - 10)),
                         sigma=SIGMA, seed=seed)  # fmt: skip


def _steps(seed: int):
    rng = np.random.default_rng(seed)
    first = int(rng.integers(10, 20))
    indices = [first, first + int(rng.integers(12, 18)), 0]
    indices[2] = indices[1] + int(rng.integers(12, LENGTH - 8 - indices[1]))
    values = [100.0]
    for _ in indices:
        values.append(values[-1] * (1 + rng.choice([-0.05, 0.05])))
    return multiple_changes(LENGTH, values=values, change_indices=indices, sigma=SIGMA, seed=seed)


def test_otavas_generated_changes_are_found_at_the_right_campaign():
    tp = fp = fn = 0
    for seed in range(20):
        for series in (_step(seed), _steps(seed)):
            a, b, c = _score([change.index for change in e_divisive(series.data)], series.get_change_point_indices())
            tp, fp, fn = tp + a, fp + b, fn + c
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"\notava-test-data: precision {precision:.2f}, recall {recall:.2f} ({tp} found, {fp} wrong, {fn} missed)")
    assert precision >= 0.9 and recall >= 0.9, (precision, recall, tp, fp, fn)


def test_otavas_noise_without_change_rarely_shows_one():
    flagged = sum(bool(e_divisive(noise_normal(LENGTH, mean=100.0, sigma=SIGMA, seed=500 + seed).data)) for seed in range(20))
    assert flagged <= 2
