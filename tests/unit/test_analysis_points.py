"""Per-point derived metrics, the ceiling, zone edges and JSON safety (the knee: test_analysis_knee.py)."""

import json
import math

import pytest

from kneeboard.analysis import (
    analyse, baseline_latency, ceiling, derived, efficiency, inflight, json_safe,
    requests_in_flight, sla_zones, split_by_variant,
)


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
