"""Stored HDR histograms: percentiles recomputed from kblat's histograms match the raw dnsperf -v latencies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kneeboard.analysis import hdr
from tests.support.latency import assert_same_percentiles, counted

RAW, FILTERED = "dnsperf-2.10-v-c2-Q500-S1.txt", "kblat-dnsperf-2.10-v-c2-Q500-S1.txt"  # one run: dnsperf -v | tee RAW | kblat


def raw_latencies_us(text: str) -> list[int]:
    """Each answer's latency (`> RCODE name type S.ffffff`) in whole µs, sorted."""
    return sorted(round(float(line.split()[-1]) * 1_000_000) for line in text.splitlines() if line.startswith("> ") and not line.startswith("> T "))


def reports(fixtures_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (fixtures_dir / FILTERED).read_text().splitlines() if line.startswith('{"kblat"')]


def test_the_point_histogram_gives_the_raw_percentiles(fixtures_dir):
    point = reports(fixtures_dir)[-1]
    latencies = raw_latencies_us((fixtures_dir / RAW).read_text())
    histogram = hdr.decode(point["hdr"])
    assert histogram.get_total_count() == len(latencies) == 1500
    assert_same_percentiles(histogram, counted(latencies))
    assert {k: point[v] for k, v in (("latency_p50_ms", "p50_ms"), ("latency_p90_ms", "p90_ms"), ("latency_p99_ms", "p99_ms"),
                                     ("latency_p999_ms", "p999_ms"))} == hdr.percentiles_ms(histogram), "kblat's own figures agree"


def test_merged_intervals_give_the_percentiles_of_their_answers(fixtures_dir):
    raw = (fixtures_dir / RAW).read_text()
    last_interval = raw.rindex("\n1795432172.049939: ")  # answers before dnsperf's last -S line fill the two intervals
    intervals = [r["hdr"] for r in reports(fixtures_dir) if r["kblat"] == "interval"]
    merged = hdr.merge(intervals)
    latencies = raw_latencies_us(raw[:last_interval])
    assert merged.get_total_count() == len(latencies) == 1003
    assert_same_percentiles(merged, counted(latencies))


def test_merging_is_exact_and_empty_is_none(fixtures_dir):
    point = reports(fixtures_dir)[-1]["hdr"]
    twice = hdr.merge([point, point])
    assert twice.get_total_count() == 3000 and hdr.percentiles_ms(twice) == hdr.percentiles_ms(hdr.decode(point))
    assert hdr.percentiles_ms(hdr.merge([])) == dict.fromkeys(hdr.PERCENTILES)
    with pytest.raises(ValueError, match="not an HdrHistogram"):
        hdr.decode("not base64 at all")


def test_a_histogram_built_from_counts_encodes_and_decodes_exactly():
    pairs = [(0, 2), (15, 3), (2049, 7), (5000, 1), (10**9, 1)]  # 0 and 10⁹ µs are clamped into 1..10⁸ µs
    histogram = hdr.decode(hdr.encode(hdr.from_counts(pairs)))
    assert histogram.get_total_count() == 14
    assert histogram.get_count_at_value(1) == 2 and histogram.get_count_at_value(hdr.HIGHEST_US) == 1
    assert hdr.percentiles_ms(histogram)["latency_p50_ms"] == histogram.get_highest_equivalent_value(2049) / 1000
