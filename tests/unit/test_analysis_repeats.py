"""Bootstrap confidence intervals and campaign verdicts."""

import numpy as np
import pytest

from kneeboard.analysis import bootstrap_ci, compare, direction, summarise_repeats, verdict


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


def test_directions():
    assert direction("achieved_rate") == 1
    assert direction("latency_avg_ms") == -1
    assert direction("latency_p99_ms") == -1
    assert direction("loss_pct") == -1
    with pytest.raises(KeyError):
        direction("colour")


def test_verdicts_with_repeats_use_the_intervals():
    a = [1000.0, 1010.0, 990.0, 1005.0]
    up = [1200.0, 1210.0, 1190.0, 1205.0]
    assert verdict("achieved_rate", a, up)["verdict"] == "better"
    assert verdict("achieved_rate", up, a)["verdict"] == "worse"
    # the same shift is worse for a latency
    assert verdict("latency_avg_ms", a, up)["verdict"] == "worse"
    assert verdict("latency_avg_ms", up, a)["verdict"] == "better"
    overlap = verdict("achieved_rate", a, [1002.0, 995.0, 1012.0, 1001.0])
    assert overlap["verdict"] == "indistinguishable"
    assert "confidence" in overlap["basis"]


def test_verdicts_without_repeats_use_a_tolerance_and_say_so():
    v = verdict("achieved_rate", [1000.0], [1030.0], tolerance_pct=5.0)
    assert v["verdict"] == "indistinguishable"
    assert "no repeats" in v["basis"] and "5 %" in v["basis"]
    assert v["change_pct"] == pytest.approx(3.0)
    assert verdict("achieved_rate", [1000.0], [1100.0])["verdict"] == "better"
    assert verdict("loss_pct", [0.0], [2.0])["verdict"] == "worse"
    assert verdict("loss_pct", [0.0], [0.05])["verdict"] == "indistinguishable"
    assert verdict("loss_pct", [3.0], [0.0])["verdict"] == "better"


def _pt(rate, latency, repeat, offered=1000.0):
    return {"phase": "saturation", "concurrency": 20, "offered_rate": offered, "achieved_rate": rate,
            "latency_avg_ms": latency, "loss_pct": 0.0, "repeat": repeat, "status": "completed", "variant": None}


def test_compare_two_campaigns():
    a = [_pt(1000 + d, 2.0 + d / 100, i) for i, d in enumerate((0, 5, -5))]
    a += [_pt(1900 + d, 4.0, i, offered=2000.0) for i, d in enumerate((0, 5, -5))]
    b = [_pt(1000 + d, 1.0 + d / 100, i) for i, d in enumerate((1, 4, -3))]
    b += [_pt(1990 + d, 3.0, i, offered=2000.0) for i, d in enumerate((0, 5, -5))]
    b.append(_pt(5000, 1.0, 0, offered=9999.0))  # no counterpart in A: not compared
    out = compare(a, b)
    assert len(out["points"]) == 2
    assert out["overall"]["achieved_rate"]["verdict"] == "better"
    assert out["overall"]["achieved_rate"]["better"] == 1
    assert out["overall"]["achieved_rate"]["indistinguishable"] == 1
    assert out["overall"]["latency_avg_ms"]["verdict"] == "better"
    assert out["overall"]["loss_pct"]["verdict"] == "indistinguishable"


def test_summarise_repeats_groups_points():
    points = [_pt(1000 + d, 2.0, i) for i, d in enumerate((0, 10, -10, 4))]
    points.append(_pt(1, 1, 0, offered=50.0))
    rows = summarise_repeats(points)
    assert [r["n"] for r in rows] == [4, 1]
    assert rows[0]["achieved_rate"]["mean"] == pytest.approx(1001.0)
    assert rows[0]["achieved_rate"]["ci_low"] < 1001.0 < rows[0]["achieved_rate"]["ci_high"]
