"""Capacity at an SLO: interpolated where the target breaks, comparable across load grids, with an interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kneeboard.analysis import capacity_at_slo, parse_seed_csv

DATA = Path(__file__).parent / "data"


def level(rate: float, latency: float, achieved: float | None = None, repeat: int = 0, p99: float | None = None) -> dict:
    return {"phase": "saturation", "concurrency": 8, "offered_rate": rate, "achieved_rate": achieved or rate, "repeat": repeat,
            "latency_avg_ms": latency, "latency_p99_ms": p99, "status": "completed", "variant": None}  # fmt: skip


def test_interpolates_where_the_latency_target_breaks():
    points = [level(1000, 0.5), level(2000, 0.8), level(3000, 1.6)]
    result = capacity_at_slo(points, limit_ms=1.0)
    assert result["metric"] == "latency_avg_ms"
    assert result["value"] == pytest.approx(2000 + (1.0 - 0.8) / (1.6 - 0.8) * 1000)
    assert result["ci_low"] is None  # one repetition per load: no interval


def test_two_grids_give_close_capacities():
    def truth(rate):
        return 0.5 + max(0.0, rate - 2000) / 1000  # the same system: latency rises past 2,000/s

    coarse = capacity_at_slo([level(r, truth(r)) for r in (1000, 2000, 3000, 4000)], limit_ms=1.0)
    fine = capacity_at_slo([level(r, truth(r)) for r in range(500, 4001, 250)], limit_ms=1.0)
    assert coarse["value"] == pytest.approx(2500) and fine["value"] == pytest.approx(2500)


def test_efficiency_breaks_it_too_and_p99_is_preferred():
    points = [level(1000, 0.2, p99=0.5), level(2000, 0.2, achieved=1990, p99=0.6), level(3000, 0.3, achieved=2400, p99=0.7)]
    result = capacity_at_slo(points, limit_ms=1.0)
    assert result["metric"] == "latency_p99_ms"
    assert 1990 < result["value"] < 2400


def test_interval_from_repetitions_contains_the_estimate():
    points = [level(r, lat * (1 + 0.05 * k), repeat=k) for k in range(3) for r, lat in ((1000, 0.5), (2000, 0.8), (3000, 1.6))]
    result = capacity_at_slo(points, limit_ms=1.0)
    assert result["repeats"] == 3 and result["ci_low"] <= result["value"] <= result["ci_high"]


def test_between_carries_the_tested_loads_around_it():
    result = capacity_at_slo([level(1000, 0.5), level(2000, 0.8), level(3000, 1.6)], limit_ms=1.0, unit="qps")
    assert (result["kind"], result["low"], result["high"]) == ("between", 2000, 3000)
    assert result["statement"] == "2,250 qps"


def test_target_held_everywhere_is_at_least_the_top_and_said_as_a_bound():
    points = [level(r, 0.1 + 0.01 * k, repeat=k) for k in range(3) for r in (1000, 2000, 4000)]
    result = capacity_at_slo(points, limit_ms=1.0, unit="q/s")
    assert (result["kind"], result["value"], result["low"], result["high"]) == ("at_least", 4000, 4000, None)
    assert result["ci_low"] is None and result["ci_high"] is None  # a bound has no interval
    assert result["statement"] == "≥ 4,000 q/s — the SLO held at every load tested"
    assert [r["kind"] for r in result["per_repeat"]] == ["at_least"] * 3


def test_target_missed_at_the_lowest_load_is_below_it():
    result = capacity_at_slo([level(1000, 5.0), level(2000, 6.0)], limit_ms=1.0, unit="q/s")
    assert (result["kind"], result["value"], result["low"], result["high"]) == ("below", 1000, None, 1000)
    assert result["statement"].startswith("< 1,000 q/s — the SLO was missed")


def test_one_capacity_per_repetition():
    scale = (1.0, 1.1, 0.9)
    points = [level(r, lat * s, repeat=k) for k, s in enumerate(scale) for r, lat in ((1000, 0.5), (2000, 0.8), (3000, 1.6))]
    reps = capacity_at_slo(points, limit_ms=1.0)["per_repeat"]
    assert [r["repeat"] for r in reps] == [0, 1, 2] and all(r["kind"] == "between" for r in reps)
    assert reps[1]["value"] < reps[0]["value"] < reps[2]["value"]  # slower repetition, lower capacity


def test_seed_000_at_one_ms():
    points = parse_seed_csv((DATA / "seed000.csv").read_text())
    result = capacity_at_slo(points, limit_ms=1.0)
    # 10,000 qps at 0.824 ms holds, 11,000 at 1.109 ms does not
    assert 9_983 < result["value"] < 10_959
    json.dumps(result, allow_nan=False)
