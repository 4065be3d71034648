"""Drift within a long point, and oscillation between neighbouring points."""

import numpy as np
import pytest

from kneeboard.analysis import drift, oscillation, oscillation_details
from kneeboard.report import analyse


def samples(rate, latency=None, n=60):
    rng = np.random.default_rng(3)
    out = []
    for i in range(n):
        r = rate(i) * (1 + rng.normal(0, 0.005))
        lat = None if latency is None else latency(i)
        out.append({"t": 1_700_000_000.0 + i, "achieved_rate": r, "latency_avg_ms": lat})
    return out


def test_flat_run_is_stable_and_rate_only_samples_work():
    d = drift(samples(lambda i: 11_000.0))  # dnsperf: no latency in interval samples
    assert d["verdict"] == "stable"
    assert abs(d["rate_drift_pct"]) < 1
    assert d["latency_drift_pct"] is None and d["latency_slope_ms_per_s"] is None


def test_sagging_rate_is_drifting():
    d = drift(samples(lambda i: 11_000.0 - 30.0 * i))
    assert d["verdict"] == "drifting"
    # first third: samples 0-19, mean 11,000 - 30 x 9.5; last third: 40-59, 11,000 - 30 x 49.5
    assert d["rate_drift_pct"] == pytest.approx((9_515 - 10_715) / 10_715 * 100, abs=0.3)
    assert d["rate_slope_per_s"] == pytest.approx(-30.0, rel=0.1)


def test_growing_latency_is_drifting():
    d = drift(samples(lambda i: 11_000.0, latency=lambda i: 1.0 + 0.02 * i))
    assert d["verdict"] == "drifting"
    assert d["latency_drift_pct"] > 20
    assert abs(d["rate_drift_pct"]) < 1


def test_the_statement_names_what_drifted_and_only_that():
    # the latency drifted (+~60 %), the rate did not (< 1 %): the card says the latency, never the rate's 0.x %
    lat = drift(samples(lambda i: 11_000.0, latency=lambda i: 1.0 + 0.02 * i))
    assert [d["metric"] for d in lat["drifted"]] == ["latency_avg_ms"]
    assert lat["statement"].startswith("drifting: mean latency +") and "achieved rate" not in lat["statement"]
    rate = drift(samples(lambda i: 11_000.0 - 30.0 * i))
    assert [d["metric"] for d in rate["drifted"]] == ["achieved_rate"] and "achieved rate −" in rate["statement"]
    both = drift(samples(lambda i: 11_000.0 - 30.0 * i, latency=lambda i: 1.0 + 0.02 * i))
    assert {d["metric"] for d in both["drifted"]} == {"achieved_rate", "latency_avg_ms"}
    steady = drift(samples(lambda i: 11_000.0, latency=lambda i: 1.0))
    assert steady["drifted"] == [] and steady["statement"] == "stable"
    assert drift(None)["statement"].startswith("insufficient data")


def test_too_few_samples():
    assert drift(samples(lambda i: 1.0, n=5))["verdict"] == "insufficient data"
    assert drift(None)["verdict"] == "insufficient data"
    assert drift([{"t": i, "achieved_rate": None, "latency_avg_ms": 1.0} for i in range(20)])["verdict"] == "insufficient data"


def test_samples_are_ordered_by_time():
    s = samples(lambda i: 11_000.0 - 30.0 * i)
    assert drift(list(reversed(s)))["rate_drift_pct"] == pytest.approx(drift(s)["rate_drift_pct"])


def test_analyse_reports_drift_from_samples():
    point = {"phase": "stability", "concurrency": 100, "offered_rate": 11_000.0, "achieved_rate": 10_950.0,
             "latency_avg_ms": 1.25, "repeat": 0, "status": "completed", "variant": None}
    out = analyse([point], samples(lambda i: 11_000.0 - 30.0 * i))
    assert out["stability"]["verdict"] == "drifting"
    assert out["knee"] is None and out["usl"] is None and out["zones"] == []
    assert "drifting" in out["conclusion"]
    assert analyse([])["stability"] is None


def _sat(offered, rates):
    return [{"phase": "saturation", "concurrency": 20, "offered_rate": offered, "achieved_rate": r,
             "latency_avg_ms": 1.0, "repeat": i, "status": "completed", "variant": None}
            for i, r in enumerate(rates)]


def test_dip_within_the_spread_of_repeats_is_not_flagged():
    noisy = _sat(1000.0, [950, 1050, 900, 1100]) + _sat(1100.0, [960, 1040, 1000, 900])
    assert oscillation(noisy) == []
    tight = _sat(1000.0, [1000, 1001, 999, 1000]) + _sat(1100.0, [960, 961, 959, 960])
    details = oscillation_details(tight)
    assert [d["offered_rate"] for d in details] == [1100.0]
    assert details[0]["noise_basis"] == "repeats"


def test_single_runs_use_the_relative_tolerance():
    points = _sat(1000.0, [1000.0]) + _sat(1100.0, [995.0]) + _sat(1200.0, [970.0])
    assert oscillation(points) == [1200.0]  # 0.5 % is noise, 2.5 % is not
    assert oscillation(points, rel_tol=0.05) == []
