"""The knee: Kneedle on throughput against offered load and on latency against throughput, with an absolute floor."""

import json
from pathlib import Path

import pytest

from kneeboard.analysis import analyse, find_knee, parse_seed_csv, saturation_onset

DATA = Path(__file__).parent / "data"


def seed_points():
    points = parse_seed_csv((DATA / "seed000.csv").read_text())
    return [*points, json.loads((DATA / "seed000_baseline.json").read_text())["point"]]


def sweep(rows, *, phase="saturation", c=20):
    return [{"phase": phase, "concurrency": c, "offered_rate": o, "achieved_rate": a, "latency_avg_ms": lat,
             "loss_pct": 0.0, "repeat": 0, "status": "completed", "variant": None} for o, a, lat in rows]


# a lab server: sub-millisecond and noisy until it saturates at ~30k, then the queue builds up
LAB = [(5000, 5000, 0.10), (10000, 10000, 0.21), (15000, 14990, 0.17), (20000, 19990, 0.24), (25000, 24980, 0.22),
       (30000, 29900, 0.31), (35000, 31000, 2.9), (40000, 31200, 3.4), (50000, 31100, 3.5)]


def test_seed_000_knee_is_where_its_author_put_it():
    knee = find_knee(seed_points())
    # the seed: "11,000-14,000 QPS, latency takes off from 1 ms to 3 ms"; the old 2x-baseline rule said 10,000
    assert 11_000 <= knee["offered_rate"] <= 14_000
    assert knee["rule"] == "latency" and knee["offered_rate"] == 11_500


def test_seed_000_saturation_onset_is_where_throughput_stops_following():
    onset = saturation_onset(seed_points())
    # the last load at >= 95 % efficiency (14,500: 96.9 %; 15,000: 94.8 %); the seed: ceiling ~16k
    assert onset["offered_rate"] == 14_500


def test_a_sub_millisecond_plateau_is_not_a_knee_saturation_is():
    knee = find_knee(sweep(LAB))
    assert knee["rule"] == "saturation" and knee["offered_rate"] == 30_000
    assert "stays" not in knee["why"] and "1.1 ms" in knee["why"]


def test_without_the_floor_the_baseline_doubling_would_count():
    # the floor is what keeps noise out: 2 x 0.10 ms is passed at 10k already
    rise_only = find_knee(sweep(LAB), floor_ms=0.0)
    assert rise_only["rule"] == "latency"


def test_a_sweep_that_neither_saturated_nor_left_its_plateau_has_no_knee():
    flat = sweep([(5000, 5000, 0.10), (10000, 10000, 0.11), (15000, 14990, 0.12), (20000, 19990, 0.24), (25000, 24980, 0.26)])
    assert find_knee(flat) is None
    result = analyse(flat)
    assert result["ceiling"]["bound"] is True
    assert "No knee" in result["conclusion"] and "≥ 24,980" in result["conclusion"]


def test_two_servers_a_fifth_apart_get_different_knees():
    fast = sweep([(o, min(o, 40_000) * 0.999, 0.2 + (1.5 if o > 40_000 else 0)) for o in range(5_000, 60_001, 5_000)])
    slow = sweep([(o, min(o, 32_000) * 0.999, 0.2 + (1.5 if o > 32_000 else 0)) for o in range(5_000, 60_001, 5_000)])
    assert find_knee(fast)["offered_rate"] == 40_000
    assert find_knee(slow)["offered_rate"] == 30_000


def test_repetitions_are_averaged_and_failed_points_ignored():
    rows = sweep(LAB)
    again = [{**p, "repeat": 1, "achieved_rate": p["achieved_rate"] * 1.001} for p in rows]
    broken = [{**rows[-1], "offered_rate": 60000, "achieved_rate": 90000, "status": "failed"}]
    assert find_knee(rows + again + broken)["offered_rate"] == 30_000


def test_few_loads_fall_back_to_the_rule():
    three = sweep([(1000, 1000, 1.0), (2000, 2000, 1.2), (3000, 2990, 4.0)])
    knee = find_knee(three)
    assert knee["offered_rate"] == 2000 and knee["rule"] == "latency"


def test_closed_loop_sweeps_read_the_latency_curve():
    rows = [(None, x, lat) for x, lat in ((1000, 0.5), (2000, 0.55), (3000, 0.6), (3900, 0.8), (4200, 3.0), (4300, 6.0))]
    pts = [{**p, "concurrency": c} for p, c in zip(sweep(rows, phase="scalability"), (1, 2, 3, 4, 8, 16))]
    knee = find_knee(pts)
    assert knee["load_axis"] == "achieved" and knee["concurrency"] == 4


@pytest.mark.parametrize("k,floor", [(0, 1.0), (2.0, -1.0)])
def test_bad_rules_are_refused(k, floor):
    with pytest.raises(ValueError):
        find_knee(sweep(LAB), k=k, floor_ms=floor)


def test_a_rise_without_a_bend_before_saturation_is_said_so():
    # latency jumps at the second load and stays up, throughput follows to 40k: no convex bend before saturation
    rows = [(10000, 10000, 0.2), (20000, 20000, 3.0), (30000, 29900, 2.9), (40000, 39800, 3.1), (50000, 41000, 3.2), (60000, 41000, 3.3)]
    knee = find_knee(sweep(rows))
    assert knee["rule"] == "saturation" and "rose above" in knee["why"] and "stayed within" not in knee["why"]
