"""The knee: the first sustained crossing of the latency rule (k × baseline and an absolute floor) or of the efficiency,
read on the medians of the repetitions, never past the red zone."""

import json
from pathlib import Path

import pytest

from kneeboard.analysis import find_knee, parse_seed_csv, saturation_onset
from kneeboard.report import analyse

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
    # the seed: "11,000-14,000 QPS, latency takes off from 1 ms to 3 ms"; the old 2x-baseline rule said 10,000. The rule:
    # above max(2 × 0.421, 0.421 + 1) = 1.421 ms, first (and for good) between 12,000 (1.358 ms) and 12,500 (1.623 ms)
    assert knee["rule"] == "latency" and knee["between"] == [12_000, 12_500]
    assert knee["offered_rate"] == pytest.approx(12_000 + 500 * (1.421 - 1.358) / (1.623 - 1.358))
    assert knee["latency_ms"] == pytest.approx(1.421) and knee["metric"] == "latency_avg_ms"


def test_seed_000_saturation_onset_is_where_throughput_stops_following():
    onset = saturation_onset(seed_points())
    # the last load at >= 95 % efficiency (14,500: 96.9 %; 15,000: 94.8 %); the seed: ceiling ~16k
    assert onset["offered_rate"] == 14_500


def test_a_sub_millisecond_plateau_is_not_a_knee_the_first_rule_crossed_is():
    knee = find_knee(sweep(LAB))
    # 0.31 ms at 30k, 2.9 ms at 35k: over the 1.1 ms line (0.10 + 1 ms) before the efficiency falls under 95 % (31,000
    # of 35,000 = 88.6 %), both between 30k and 35k
    assert knee["rule"] == "latency" and knee["between"] == [30_000, 35_000]
    assert knee["offered_rate"] == pytest.approx(30_000 + 5_000 * (1.1 - 0.31) / (2.9 - 0.31))
    assert "1.1 ms" in knee["why"]


def test_without_the_latency_rule_saturation_decides():
    knee = find_knee(sweep(LAB), floor_ms=10.0)
    assert knee["rule"] == "saturation" and 30_000 < knee["offered_rate"] < 35_000


def test_a_sweep_that_neither_saturated_nor_left_its_plateau_has_no_knee():
    flat = sweep([(5000, 5000, 0.10), (10000, 10000, 0.11), (15000, 14990, 0.12), (20000, 19990, 0.24), (25000, 24980, 0.26)])
    assert find_knee(flat) is None
    result = analyse(flat)
    assert result["ceiling"]["bound"] is True and result["ceiling"]["kind"] == "lower_bound"
    assert "No knee" in result["conclusion"] and "≥ 24,980" in result["conclusion"]


def test_two_servers_a_fifth_apart_get_knees_in_that_order():
    fast = sweep([(o, min(o, 40_000) * 0.999, 0.2 + (1.5 if o > 40_000 else 0)) for o in range(5_000, 60_001, 5_000)])
    slow = sweep([(o, min(o, 32_000) * 0.999, 0.2 + (1.5 if o > 32_000 else 0)) for o in range(5_000, 60_001, 5_000)])
    assert find_knee(fast)["between"] == [40_000, 45_000]
    assert find_knee(slow)["between"] == [30_000, 35_000]
    assert find_knee(slow)["offered_rate"] < find_knee(fast)["offered_rate"]


def test_repetitions_are_read_by_their_median_and_failed_points_ignored():
    rows = sweep(LAB)
    again = [{**p, "repeat": 1, "achieved_rate": p["achieved_rate"] * 1.001} for p in rows]
    # a third repetition that stalled at 20k (latency 9 ms) moves nothing: the median of three ignores it
    stalled = [{**p, "repeat": 2, "latency_avg_ms": 9.0 if p["offered_rate"] == 20_000 else p["latency_avg_ms"]} for p in rows]
    broken = [{**rows[-1], "offered_rate": 60000, "achieved_rate": 90000, "status": "failed"}]
    assert find_knee(rows + again + stalled + broken)["offered_rate"] == pytest.approx(find_knee(rows)["offered_rate"])


def test_one_noisy_load_over_the_line_is_not_a_crossing():
    # 1.6 ms at 15k, back to 0.3 ms at 20k: not sustained; the knee is where latency rises for good
    rows = [(5000, 5000, 0.2), (10000, 10000, 0.25), (15000, 15000, 1.6), (20000, 20000, 0.3), (25000, 25000, 0.35),
            (30000, 29900, 2.2), (35000, 33000, 4.0)]
    knee = find_knee(sweep(rows))
    assert knee["between"] == [25_000, 30_000]


def test_the_knee_is_never_past_the_red_zone():
    rows = [(1000, 1000, 2.0), (2000, 2000, 2.4), (3000, 3000, 3.4), (4000, 4000, 3.6), (5000, 5000, 4.5), (6000, 5990, 9.0)]
    # the rule's line is max(2 × 2.0, 2.0 + 1) = 4 ms (crossed between 4k and 5k); the red zone (≥ 3 ms) starts at 2.6k
    result = analyse(sweep(rows))
    red = next(z["from_rate"] for z in result["zones"] if z["zone"] == "red")
    assert red == pytest.approx(2000 + 1000 * (3.0 - 2.4) / (3.4 - 2.4))
    assert result["knee"]["offered_rate"] == pytest.approx(red) and "red zone" in result["knee"]["why"]


def test_the_knee_reads_a_tail_percentile_when_the_slo_is_on_one():
    rows = sweep(LAB)
    for p in rows:  # p99 leaves its plateau a load earlier than the mean
        p["latency_p99_ms"] = 0.5 if p["offered_rate"] < 25_000 else 3.0 if p["offered_rate"] == 25_000 else 20.0
    mean = analyse(rows)["knee"]
    tail = analyse(rows, slo_metric="latency_p99_ms")["knee"]
    assert mean["metric"] == "latency_avg_ms" and tail["metric"] == "latency_p99_ms"
    assert tail["between"] == [20_000, 25_000] and tail["offered_rate"] < mean["offered_rate"]
    assert "p99 latency" in tail["why"]


def test_a_rise_at_the_lowest_load_says_the_knee_is_at_or_below_it():
    three = sweep([(1000, 1000, 4.0), (2000, 2000, 4.2), (3000, 2990, 4.0)])
    knee = find_knee(three, baseline_ms=0.5)
    assert knee["offered_rate"] == 1000 and knee["between"] == [None, 1000] and "at or below" in knee["why"]


def test_closed_loop_sweeps_read_the_latency_curve():
    rows = [(None, x, lat) for x, lat in ((1000, 0.5), (2000, 0.55), (3000, 0.6), (3900, 0.8), (4200, 3.0), (4300, 6.0))]
    pts = [{**p, "concurrency": c} for p, c in zip(sweep(rows, phase="scalability"), (1, 2, 3, 4, 8, 16))]
    knee = find_knee(pts)
    assert knee["load_axis"] == "achieved" and knee["concurrency"] == 4 and knee["between"] == [3900, 4200]


@pytest.mark.parametrize("k,floor", [(0, 1.0), (2.0, -1.0)])
def test_bad_rules_are_refused(k, floor):
    with pytest.raises(ValueError):
        find_knee(sweep(LAB), k=k, floor_ms=floor)
