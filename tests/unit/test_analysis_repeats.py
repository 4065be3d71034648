"""Bootstrap confidence intervals and campaign verdicts."""

import numpy as np
import pytest

from kneeboard.analysis import bootstrap_ci, summarise_repeats


def test_ci_contains_the_mean_and_is_reproducible():
    values = [100.0, 103.0, 98.0, 101.0, 99.5]
    ci = bootstrap_ci(values)
    assert ci["n"] == 5
    assert ci["mean"] == pytest.approx(np.mean(values))
    assert ci["ci_low"] < ci["mean"] < ci["ci_high"]
    assert bootstrap_ci(values) == ci
    assert min(values) <= ci["ci_low"] and ci["ci_high"] <= max(values)


def test_ci_narrows_with_more_samples():
    rng = np.random.default_rng(1)
    data = rng.normal(1000.0, 50.0, 200)
    few, many = bootstrap_ci(data[:5]), bootstrap_ci(data)
    assert many["ci_high"] - many["ci_low"] < (few["ci_high"] - few["ci_low"]) / 2


def test_single_value_has_no_interval():
    assert bootstrap_ci([5.0]) == {"n": 1, "mean": 5.0, "ci_low": None, "ci_high": None}
    assert bootstrap_ci([None, float("nan")])["mean"] is None


def _pt(rate, latency, repeat, offered=1000.0):
    return {"phase": "saturation", "concurrency": 20, "offered_rate": offered, "achieved_rate": rate,
            "latency_avg_ms": latency, "loss_pct": 0.0, "repeat": repeat, "status": "completed", "variant": None}


def test_summarise_repeats_groups_points():
    points = [_pt(1000 + d, 2.0, i) for i, d in enumerate((0, 10, -10, 4))]
    points.append(_pt(1, 1, 0, offered=50.0))
    rows = summarise_repeats(points)
    assert [r["n"] for r in rows] == [4, 1]
    assert rows[0]["achieved_rate"]["mean"] == pytest.approx(1001.0)
    assert rows[0]["achieved_rate"]["ci_low"] < 1001.0 < rows[0]["achieved_rate"]["ci_high"]
