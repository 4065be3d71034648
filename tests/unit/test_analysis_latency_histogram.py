"""Percentiles where people look: a point's histogram as chart buckets, capacity at an SLO read on any percentile,
and the low-load percentile a comparison's headline shows."""

from __future__ import annotations

import json

import pytest
from hdrh.histogram import HdrHistogram

from kneeboard.analysis import hdr
from kneeboard.report import analyse
from kneeboard.compare.service import low_load

FILTERED = "kblat-dnsperf-2.10-v-c2-Q500-S1.txt"  # dnsperf -v piped through kblat: 1,500 answers


def _reports(fixtures_dir) -> list[dict]:
    return [json.loads(line) for line in (fixtures_dir / FILTERED).read_text().splitlines() if line.startswith('{"kblat"')]


def test_buckets_hold_every_value_once_and_end_at_one_hundred_percent(fixtures_dir):
    histogram = hdr.decode(_reports(fixtures_dir)[-1]["hdr"])
    out = hdr.distribution_ms(histogram)
    buckets = out["buckets"]
    assert out["count"] == sum(b["count"] for b in buckets) == 1500
    assert len(buckets) <= hdr.MAX_BUCKETS and len(json.dumps(out)) < 40_000
    assert (out["min_ms"], out["max_ms"]) == (0.017, 4.279)
    assert out["mean_ms"] == pytest.approx(histogram.get_mean_value() / 1000)
    assert buckets[-1]["percentile"] == 100.0 and buckets[-1]["value_ms"] == out["max_ms"]
    assert all(a["value_ms"] == b["from_ms"] and a["value_ms"] < b["value_ms"] for a, b in zip(buckets, buckets[1:])), "contiguous, rising"
    too_wide = [b for b in buckets if b["value_ms"] - b["from_ms"] > 0.05 * b["from_ms"] + 0.0011]
    assert too_wide == [], "log-spaced: a bucket spans a few percent at most (plus 1 µs of rounding to whole µs)"
    table = {row["percentile"]: row["value_ms"] for row in out["percentiles"]}
    assert [table[q] for q in (50.0, 90.0, 99.0, 99.9)] == list(hdr.percentiles_ms(histogram).values())
    assert table[99.99] == 4.279
    for q, value in table.items():  # the bucket holding a percentile's value is where the running share passes it
        holding = next(b for b in buckets if b["from_ms"] < value <= b["value_ms"])
        assert holding["percentile"] >= q


def test_fewer_buckets_on_request_and_a_single_value_is_one_bucket():
    histogram = HdrHistogram(hdr.LOWEST_US, hdr.HIGHEST_US, hdr.DIGITS)
    for us in range(100, 100_000, 7):
        histogram.record_value(us)
    out = hdr.distribution_ms(histogram, max_buckets=20)
    assert len(out["buckets"]) == 20 and sum(b["count"] for b in out["buckets"]) == histogram.get_total_count()
    one = HdrHistogram(hdr.LOWEST_US, hdr.HIGHEST_US, hdr.DIGITS)
    one.record_value(250, 4)
    assert [(b["count"], b["percentile"]) for b in hdr.distribution_ms(one)["buckets"]] == [(4, 100.0)]
    empty = hdr.distribution_ms(HdrHistogram(hdr.LOWEST_US, hdr.HIGHEST_US, hdr.DIGITS))
    assert empty["count"] == 0 and empty["buckets"] == [] and empty["percentiles"][0]["value_ms"] is None


def test_the_steady_part_leaves_the_warm_up_out(fixtures_dir):
    intervals = [[r["t"], r["hdr"]] for r in _reports(fixtures_dir) if r["kblat"] == "interval"]
    assert len(intervals) == 2
    assert hdr.steady_part(intervals, 0.0) == [e for _, e in sorted(intervals)]
    assert hdr.steady_part(reversed(intervals), 0.5) == [sorted(intervals)[1][1]]
    assert hdr.steady_part([], 1.0) == []


def _level(rate: float, avg: float, p99: float) -> dict:
    return {"phase": "saturation", "concurrency": 8, "offered_rate": rate, "achieved_rate": rate, "repeat": 0, "status": "completed",
            "variant": None, "latency_avg_ms": avg, "latency_p50_ms": avg * 0.8, "latency_p99_ms": p99}  # fmt: skip


def test_capacity_reads_the_chosen_percentile_and_the_default_is_unchanged():
    points = [_level(1000, 0.5, 2.0), _level(2000, 0.8, 4.0), _level(3000, 1.6, 9.0)]
    default = analyse(points, yellow_ms=3.0)["capacity"]
    assert default["metric"] == "latency_p99_ms" and default["value"] == pytest.approx(1000 + (3 - 2) / (4 - 2) * 1000)
    on_p99 = analyse(points, slo_ms=5.0, slo_metric="latency_p99_ms")["capacity"]
    assert on_p99["metric"] == "latency_p99_ms" and on_p99["value"] == pytest.approx(2000 + (5 - 4) / (9 - 4) * 1000)
    on_p50 = analyse(points, slo_ms=1.0, slo_metric="latency_p50_ms")["capacity"]  # p50: 0.4, 0.64, 1.28 ms
    assert on_p50["metric"] == "latency_p50_ms" and on_p50["value"] == pytest.approx(2000 + (1 - 0.64) / (1.28 - 0.64) * 1000)
    on_avg = analyse(points, slo_ms=1.0, slo_metric="latency_avg_ms")["capacity"]
    assert on_avg["metric"] == "latency_avg_ms" and on_avg["value"] == pytest.approx(2000 + (1 - 0.8) / (1.6 - 0.8) * 1000)


def test_low_load_is_the_baseline_else_the_lightest_sweep_level():
    sweep = [_level(2000, 0.8, 4.0), _level(1000, 0.5, 2.0), {**_level(1000, 0.5, 3.0), "repeat": 1}, _level(3000, 1.6, 9.0)]
    assert low_load(sweep, "latency_p99_ms") == pytest.approx(2.5)  # the 1,000/s level, its two repetitions averaged
    baseline = {**_level(100, 0.2, 0.7), "phase": "baseline", "offered_rate": None}
    assert low_load([*sweep, baseline], "latency_p99_ms") == 0.7
    assert low_load(sweep, "latency_p999_ms") is None
