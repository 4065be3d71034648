"""Steady window: warm-up trimmed, wandering or drifting points flagged."""

from __future__ import annotations

import numpy as np

from kneeboard.analysis.steady import steady_window


def test_warmup_is_trimmed_and_a_flat_series_is_steady():
    series = [(100.0, 50.0), (101.0, 1000.0), (102.0, 1010.0), (103.0, 990.0), (104.0, 1005.0)]
    result = steady_window(series, warmup_s=1.0)
    assert result["intervals"] == 4 and not result["unsteady"]
    assert 990 < result["mean"] < 1010  # the 50/s ramp-up second is left out


def test_a_drifting_series_is_unsteady():
    series = [(float(t), 1000.0 * (1 - 0.03 * t)) for t in range(10)]
    result = steady_window(series, warmup_s=1.0)
    assert result["unsteady"] and "drifts" in result["reason"] and result["trend_pct"] < -10


def test_a_wandering_series_is_unsteady():
    rng = np.random.default_rng(1)
    result = steady_window([(float(t), 1000 * (1 + rng.normal(0, 0.4))) for t in range(10)], warmup_s=1.0)
    assert result["unsteady"] and "varies" in result["reason"]


def test_too_few_intervals_are_not_judged():
    assert steady_window([(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)], warmup_s=1.0) is None
    assert steady_window([], warmup_s=1.0) is None


def test_conclusion_prints_bit_rates_with_si_prefixes():
    from kneeboard.analysis.conclusion import rate_text as _rate

    assert _rate(22_851_029_000, "bit/s") == "22.9 Gbit/s" and _rate(400e6, "bit/s") == "400 Mbit/s"
    assert _rate(16_795.98, "qps") == "16,796 qps"
