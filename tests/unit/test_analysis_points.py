"""Per-point derived metrics, the ceiling, zone edges and JSON safety (the knee: test_analysis_knee.py)."""

import json
import math

import pytest

from kneeboard.analysis import baseline_latency, ceiling, derived, efficiency, inflight, requests_in_flight, sla_zones, split_by_variant
from kneeboard.report import analyse, json_safe


def pt(phase, offered, achieved, latency, *, c=20, status="completed", repeat=0, variant=None):
    return {"phase": phase, "concurrency": c, "offered_rate": offered, "achieved_rate": achieved,
            "latency_avg_ms": latency, "latency_stddev_ms": None, "loss_pct": 0.0, "repeat": repeat,
            "status": status, "variant": variant}


def test_efficiency_and_littles_law():
    p = pt("saturation", 16_000.0, 14_922.87, 3.492)
    assert efficiency(p) == pytest.approx(14_922.87 / 16_000)
    assert inflight(p) == pytest.approx(14_922.87 * 3.492 / 1000)
    assert efficiency(pt("custom", None, 10.0, 1.0)) is None
    assert efficiency(pt("custom", 0.0, 10.0, 1.0)) is None
    assert inflight(pt("custom", 5.0, 5.0, None)) is None
    (d,) = derived([p])
    assert d["inflight"] == pytest.approx(52.11, abs=0.01) and "efficiency" not in p


def test_baseline_phase_wins_over_the_lowest_load():
    points = [pt("baseline", 500.0, 500.0, 0.6, c=1, repeat=0), pt("baseline", 500.0, 500.0, 0.4, c=1, repeat=1),
              pt("saturation", 100.0, 100.0, 0.9)]
    assert baseline_latency(points) == pytest.approx(0.5)
    assert baseline_latency(points[2:]) == pytest.approx(0.9)
    assert baseline_latency([pt("baseline", 500.0, 500.0, 0.6, status="failed")]) is None


def test_ceiling_and_requests_in_flight():
    points = [pt("saturation", 1000.0, 990.0, 1.0, repeat=0), pt("saturation", 1000.0, 1010.0, 1.0, repeat=1),
              pt("saturation", 2000.0, 1005.0, 1.0), pt("saturation", 3000.0, 5000.0, 1.0, status="failed")]
    top = ceiling(points)
    assert top["achieved_rate"] == 1005.0 and top["bound"] is False  # the 1010 repeat averages to 1000; 2000 offered fell short
    assert ceiling(points[:2])["bound"] is True  # the best load kept up: a lower bound
    assert requests_in_flight(16_000.0, 0.5) == pytest.approx(8.0)
    assert requests_in_flight(None, 0.5) is None and requests_in_flight(16_000.0, 0.0) is None


def test_a_ceiling_with_higher_loads_achieving_less_is_measured_and_says_them():
    # one run per load: a drop over 2 % of the ceiling is beyond a run's own noise
    points = [pt("saturation", o, a, 1.0) for o, a in ((30_000, 29_900), (35_000, 33_900), (40_000, 31_800), (50_000, 30_100))]
    top = ceiling(points)
    assert top["kind"] == "measured" and top["bound"] is False and top["reason"] == "fell"
    assert [(p["offered_rate"], p["achieved_rate"]) for p in top["past"]] == [(40_000, 31_800), (50_000, 30_100)]
    said = analyse(points, unit="qps")["ceiling"]["statement"]
    assert said.startswith("33,900 qps at 35,000 qps offered, measured") and "31,800 qps at 40,000 qps" in said
    assert "lower bound" not in said


def test_a_drop_within_the_repetitions_spread_leaves_a_kept_up_ceiling_a_lower_bound():
    # 36k's mean (34,990) is 10 under 35k's (35,000), far within its repetitions' spread (±1,000), and it kept up (97 %)
    rows = [(30_000, (29_990, 30_010, 30_000)), (35_000, (34_990, 35_010, 35_000)), (36_000, (35_990, 34_000, 34_980))]
    points = [pt("saturation", o, a, 1.0, repeat=r) for o, values in rows for r, a in enumerate(values)]
    top = ceiling(points)
    assert top["offered_rate"] == 35_000 and top["kind"] == "lower_bound" and top["reason"] == "kept_up"
    assert "achieved as much within their spread" in analyse(points)["ceiling"]["statement"]


def test_a_top_load_still_climbing_is_a_lower_bound_and_a_flat_one_is_measured():
    climbing = [pt("saturation", o, a, 1.0) for o, a in ((10_000, 10_000), (20_000, 19_000), (30_000, 26_000))]
    flat = [pt("saturation", o, a, 1.0) for o, a in ((10_000, 10_000), (20_000, 19_000), (30_000, 19_500))]
    assert ceiling(climbing)["reason"] == "rising" and ceiling(climbing)["bound"] is True  # +7,000 of +10,000 offered
    assert ceiling(flat)["reason"] == "plateau" and ceiling(flat)["bound"] is False  # +500 of +10,000
    assert "still gaining" in analyse(climbing)["ceiling"]["statement"]


def test_a_closed_loop_ceiling_names_concurrencies():
    points = [pt("scalability", None, a, 1.0, c=c) for c, a in ((1, 1000.0), (2, 1900.0), (4, 2500.0), (8, 2200.0))]
    top = analyse(points, unit="req/s")["ceiling"]
    assert top["kind"] == "measured" and top["concurrency"] == 4
    assert top["statement"] == "2,500 req/s at concurrency 4, measured: the higher loads achieved less (2,200 req/s at concurrency 8)"


def test_zones_read_the_medians_and_the_first_sustained_crossing():
    # one repetition stalled at 2,000 (9 ms): the median of three keeps the load green; 3,000 alone over 1 ms, then
    # back under it, is no crossing
    reps = {1000: (0.5, 0.5, 0.5), 2000: (0.6, 9.0, 0.6), 3000: (1.2, 1.2, 1.2), 4000: (0.8, 0.8, 0.8), 5000: (2.0, 2.0, 2.0)}
    sweep = [pt("saturation", x, x, lat, repeat=r) for x, values in reps.items() for r, lat in enumerate(values)]
    zones = sla_zones(sweep)
    assert zones[0]["zone"] == "green" and zones[0]["to_rate"] == pytest.approx(4000 + 1000 * 0.2 / 1.2)


def test_zones_edges():
    sweep = [pt("saturation", x, x, lat) for x, lat in ((1000, 0.5), (2000, 0.8), (3000, 2.0), (4000, 1.5), (5000, 2.5))]
    zones = sla_zones(sweep)
    assert [z["zone"] for z in zones] == ["green", "yellow"]
    assert zones[0]["to_rate"] == pytest.approx(2000 + 1000 * (0.2 / 1.2))
    assert zones[1]["to_rate"] == 5000  # never reached 3 ms: no red zone
    hot = [pt("saturation", x, x, lat) for x, lat in ((1000, 3.5), (2000, 5.0))]
    assert sla_zones(hot) == [{"zone": "red", "from_rate": 1000.0, "to_rate": 2000.0}]
    assert sla_zones([pt("saturation", 1000.0, 1000.0, 1.5)]) == [{"zone": "yellow", "from_rate": 1000.0, "to_rate": 1000.0}]
    with pytest.raises(ValueError):
        sla_zones(sweep, green_ms=3.0, yellow_ms=1.0)


def test_closed_loop_points_use_achieved_rate_as_load():
    # a closed-loop tool varies concurrency, not a rate
    sweep = [pt("saturation", None, x, lat, c=c) for c, x, lat in ((10, 1000.0, 0.5), (20, 2000.0, 1.5))]
    assert baseline_latency(sweep) == 0.5
    assert sla_zones(sweep)[0] == {"zone": "green", "from_rate": 1000.0, "to_rate": 1500.0}


def test_mixed_variants_are_refused_and_can_be_split():
    points = [pt("saturation", 1.0, 1.0, 1.0, variant="q1"), pt("saturation", 1.0, 1.0, 1.0, variant="q4")]
    with pytest.raises(ValueError):
        analyse(points)
    assert sorted(split_by_variant(points)) == ["q1", "q4"]


def test_json_safe_replaces_non_finite_numbers():
    import numpy as np

    out = json_safe({"a": float("nan"), "b": [np.float64(1.5), float("inf")], "c": np.int64(3), "d": None, "e": "x"})
    assert out == {"a": None, "b": [1.5, None], "c": 3, "d": None, "e": "x"}
    assert type(out["b"][0]) is float and type(out["c"]) is int


def test_degenerate_inputs_stay_json_safe():
    for points in ([], [pt("saturation", 0.0, 0.0, 0.0)], [pt("scalability", 10.0, math.nan, math.inf, c=1)],
                   [pt("saturation", 1000.0, 1000.0, 1.0, status="failed")]):
        out = analyse(points)
        json.dumps(out, allow_nan=False)
        assert isinstance(out["conclusion"], str) and out["conclusion"]
