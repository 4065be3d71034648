"""Checks of stored HDR histograms against the raw latencies of a known run (HDR's rank rule)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from kneeboard.analysis import hdr


def counted(latencies_us: Iterable[int]) -> list[tuple[int, int]]:
    """Raw latencies as sorted (value µs, count) pairs."""
    return sorted(Counter(latencies_us).items())


def value_at_rank(pairs: list[tuple[int, int]], rank: int) -> int:
    """The rank-th smallest raw value (1-based) of sorted (value, count) pairs."""
    seen = 0
    for value, count in pairs:
        seen += count
        if seen >= rank:
            return value
    raise AssertionError(f"rank {rank} is beyond the {seen} values")


def assert_same_percentiles(histogram, pairs: list[tuple[int, int]]) -> None:
    """Each percentile is the top of the HDR bucket holding the raw value of the same rank (HDR's rank rule),
    and within HDR's 3 significant digits of that raw value."""
    total = sum(count for _, count in pairs)
    assert histogram.get_total_count() == total
    got = hdr.percentiles_ms(histogram)
    for name, q in hdr.PERCENTILES.items():
        raw = max(hdr.LOWEST_US, value_at_rank(pairs, max(1, int(q / 100 * total + 0.5))))
        assert got[name] == histogram.get_highest_equivalent_value(raw) / 1000, name
        assert got[name] == pytest.approx(raw / 1000, rel=1e-3), f"{name} within 3 significant digits"
