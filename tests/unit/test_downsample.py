"""Server-side downsampling keeps every series within what a chart can draw."""

from __future__ import annotations

import pytest

from kneeboard.campaigns.downsample import downsample


def test_long_series_is_reduced_to_bucket_means():
    rows = [(float(t), {"achieved_rate": float(t % 10), "latency_avg_ms": None}) for t in range(86_400)]
    out = downsample(rows, 2000)
    assert len(out) == 2000
    assert out[0][0] == pytest.approx(sum(range(43)) / 43, rel=0.05)
    assert all(4.0 <= v["achieved_rate"] <= 5.0 for _, v in out), "each bucket is the mean of its rows"
    assert all(v["latency_avg_ms"] is None for _, v in out), "a metric with no values stays None"
    assert [t for t, _ in out] == sorted(t for t, _ in out)


def test_short_series_is_untouched():
    rows = [(1.0, {"x": 1.0}), (2.0, {"x": None})]
    assert downsample(rows, 2000) == rows
