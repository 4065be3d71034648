"""The analysis run on seed 000's published figures (tests/unit/data/seed000.csv)."""

import json
import math
from pathlib import Path

import pytest

from kneeboard.analysis import baseline_latency, fit_usl, oscillation, parse_seed_csv
from kneeboard.report import analyse

DATA = Path(__file__).parent / "data"


def seed_points(with_baseline=True):
    points = parse_seed_csv((DATA / "seed000.csv").read_text())
    if with_baseline:
        points.append(json.loads((DATA / "seed000_baseline.json").read_text())["point"])
    return points


@pytest.fixture(scope="module")
def result():
    return analyse(seed_points())


def test_result_has_exactly_the_documented_keys(result):
    assert set(result) == {
        "knee", "ceiling", "requests_in_flight", "usl", "zones", "zones_metric", "capacity", "stability", "oscillation",
        "conclusion", "headline", "sections", "generator_limited", "evidence",
    }
    assert set(result["knee"]) == {"offered_rate", "achieved_rate", "latency_avg_ms", "latency_ms", "metric", "threshold_ms",
                                   "concurrency", "load_axis", "between", "rule", "rule_text", "why"}
    assert set(result["ceiling"]) == {"achieved_rate", "bound", "kind", "offered_rate", "concurrency", "past", "statement"}
    assert set(result["usl"]) == {
        "sigma", "kappa", "lambda_", "peak_concurrency", "peak_rate", "r2", "amdahl_p", "note",
    }
    assert set(result["stability"]) == {"verdict", "rate_drift_pct", "latency_drift_pct", "latency_metric", "drifted", "statement"}


def test_baseline_is_the_fastest_unsaturated_point():
    # R0: one client at 2,500 qps (0.421 ms) is faster than the 0.56 ms baseline run and the
    # 500 qps saturation point (0.668 ms); both would bias R0 upwards.
    assert baseline_latency(seed_points()) == pytest.approx(0.421)
    assert baseline_latency(seed_points(with_baseline=False)) == pytest.approx(0.421)


def test_knee_lies_in_the_seeds_bend(result):
    knee = result["knee"]
    assert 11_000 <= knee["offered_rate"] <= 14_000  # the seed's author: 11-14k, latency from 1 to 3 ms
    assert knee["rule"] == "latency"


def test_knee_floor_moves_it_to_saturation_when_latency_never_rose_enough():
    # a floor above every latency before saturation (and a red zone from 6 ms) leaves the throughput knee: the efficiency
    # falls under 95 % between 14,500 (96.9 %) and 15,000 (94.8 %)
    high = analyse(seed_points(), knee_floor_ms=4.0, green_ms=5.0, yellow_ms=6.0)["knee"]
    assert high["rule"] == "saturation" and high["between"] == [14_500, 15_000]


def test_ceiling_is_the_highest_achieved_rate(result):
    assert result["ceiling"]["achieved_rate"] == pytest.approx(16_795.98)


def test_usl_peak_is_within_ten_percent_of_the_ceiling(result):
    usl = result["usl"]
    ceiling = result["ceiling"]["achieved_rate"]
    assert abs(usl["peak_rate"] - ceiling) / ceiling <= 0.10
    assert 16_000 <= usl["peak_rate"] <= 17_000
    assert usl["r2"] > 0.95
    assert 0 <= usl["sigma"] <= 1 and usl["kappa"] > 0
    assert usl["peak_concurrency"] == pytest.approx(math.sqrt((1 - usl["sigma"]) / usl["kappa"]))
    assert usl["lambda_"] > 2_500  # the rate-limited points only bound it from below
    assert "censored" in usl["note"] and "kept up" in usl["note"] and "generator" not in usl["note"]


def test_rate_limited_points_are_counted():
    usl = fit_usl(seed_points())
    # c = 1, 2, 4, 5 ran at exactly their paced rate; the curve must lie above them
    assert usl["rate_limited_points"] >= 4
    assert usl["points"] == 16


def test_without_censoring_the_fit_is_distorted():
    censored = fit_usl(seed_points())
    naive = fit_usl(seed_points(), censor=False)
    # the naive fit takes the paced 2,500 qps per client as the system's own rate
    assert naive["lambda_"] < 0.5 * censored["lambda_"]
    assert naive["r2"] < censored["r2"]


def test_littles_law_requests_in_flight(result):
    # 16,796 qps × 0.421 ms; the seed's own analysis says about 8 (16,000 × 0.5 ms)
    inflight = result["requests_in_flight"]
    assert inflight["at_ceiling"] == pytest.approx(16_795.98 * 0.421 / 1000)
    knee = result["knee"]
    assert inflight["at_knee"] == pytest.approx(knee["achieved_rate"] * knee["latency_avg_ms"] / 1000)
    assert 11_909.74 <= knee["achieved_rate"] <= 12_380.92  # between the two loads around the knee
    assert 7.0 <= analyse(seed_points(with_baseline=False))["requests_in_flight"]["at_ceiling"] <= 10.5


def test_zones_match_the_seeds_sla_table(result):
    zones = {z["zone"]: z for z in result["zones"]}
    assert [z["zone"] for z in result["zones"]] == ["green", "yellow", "red"]
    assert 10_000 <= zones["green"]["to_rate"] <= 11_000
    assert zones["yellow"]["from_rate"] == zones["green"]["to_rate"]
    assert 13_000 <= zones["yellow"]["to_rate"] <= 15_000
    assert 14_000 <= zones["red"]["from_rate"] <= 15_000
    assert zones["green"]["from_rate"] == 500 and zones["red"]["to_rate"] == 25_000


def test_zones_follow_the_thresholds():
    zones = {z["zone"]: z for z in analyse(seed_points(), green_ms=2.0, yellow_ms=4.0)["zones"]}
    assert 12_500 <= zones["green"]["to_rate"] <= 13_000
    assert 16_500 <= zones["red"]["from_rate"] <= 17_000


def test_m_shaped_dip_is_flagged(result):
    assert result["oscillation"] == [17_500]


def test_a_smooth_sweep_is_not_flagged():
    points = [p for p in seed_points() if not (p["phase"] == "saturation" and p["offered_rate"] == 17_500)]
    assert oscillation(points) == []


def test_stability_without_samples_is_insufficient(result):
    assert result["stability"]["verdict"] == "insufficient data"
    assert result["stability"]["rate_drift_pct"] is None


def test_output_is_json_safe(result):
    text = json.dumps(result, allow_nan=False)
    assert "NaN" not in text and "Infinity" not in text


def test_conclusion_states_the_figures(result):
    text = result["conclusion"]
    for needle in ("16,796", f"{result['knee']['offered_rate']:,.0f}", "10,618", "14,834", "7.1", "17,500", "could not be judged", "99.5 %"):
        assert needle in text, needle
    assert f"{result['usl']['peak_rate']:,.0f}" in text


def test_saturated_points_never_set_r0():
    points = seed_points(with_baseline=False)
    fast_but_saturated = {**points[0], "concurrency": 3, "offered_rate": 9_000.0, "achieved_rate": 7_000.0, "latency_avg_ms": 0.2}
    assert baseline_latency([*points, fast_but_saturated]) == pytest.approx(0.421)  # 78 % efficiency: saturated
    assert analyse([*points, fast_but_saturated])["knee"]["offered_rate"] == analyse(points)["knee"]["offered_rate"]
