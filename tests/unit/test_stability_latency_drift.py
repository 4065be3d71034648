"""The long point's latency drift is computed from whatever latency the tool gives per interval, and named.

dnsperf's `-S 1` lines carry only the rate; through kblat each interval also has its percentiles (the median is the
interval's typical latency there). Devsim's intervals carry a mean, which is preferred when present.
"""

from __future__ import annotations

import pytest

from kneeboard.analysis.stability import drift, interval_latency
from kneeboard.tools import dnsperf


def stored(fixtures_dir, name: str) -> list[dict]:
    """The point's samples as the analysis reads them from the stored series (campaigns/analysis.py)."""
    result = dnsperf.parse((fixtures_dir / name).read_text(), "", 0)
    return [{"t": s.t, **s.values} for s in result.samples]


def test_dnsperf_through_kblat_drifts_on_its_interval_median(fixtures_dir):
    samples = stored(fixtures_dir, "kblat-dnsperf-2.10-v-c2-Q2000-l8-S1.txt")
    d = drift(samples)
    assert len(samples) == 7 and d["verdict"] != "insufficient data"
    assert d["latency_metric"] == "latency_p50_ms"
    medians = [s["latency_p50_ms"] for s in samples]
    first, last = sum(medians[:2]) / 2, sum(medians[-2:]) / 2  # a third of 7 samples is 2
    assert d["latency_drift_pct"] == pytest.approx((last - first) / first * 100)


def test_without_a_latency_per_interval_there_is_no_latency_drift(fixtures_dir):
    samples = stored(fixtures_dir, "dnsperf-2.10-S1-interval.txt")
    d = drift(samples)
    assert d["latency_drift_pct"] is None and d["latency_metric"] is None and interval_latency(samples) is None


def test_the_mean_is_preferred_where_the_intervals_carry_one():
    samples = [{"t": float(i), "achieved_rate": 100.0, "latency_avg_ms": 1.0 + i, "latency_p50_ms": 1.0} for i in range(9)]
    d = drift(samples)
    assert d["latency_metric"] == "latency_avg_ms" and d["latency_drift_pct"] == pytest.approx((8 - 2) / 2 * 100)
    assert d["verdict"] == "drifting"
