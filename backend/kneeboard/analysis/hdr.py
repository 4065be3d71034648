"""Stored latency histograms: HdrHistogram V2 compressed, base64 (as kblat writes them), values in µs.

Decode one, merge several exactly (intervals into a point, a point across agents), and read the
percentiles Kneeboard reports. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

from hdrh.histogram import HdrHistogram

LOWEST_US, HIGHEST_US, DIGITS = 1, 100_000_000, 3  # kblat's range and precision
PERCENTILES = {"latency_p50_ms": 50.0, "latency_p90_ms": 90.0, "latency_p99_ms": 99.0, "latency_p999_ms": 99.9}


def decode(encoded: str) -> HdrHistogram:
    """One stored histogram (ValueError when it is not a V2 compressed histogram)."""
    try:
        return HdrHistogram.decode(encoded)
    except Exception as exc:  # noqa: BLE001 - hdrh raises base64, zlib and its own errors
        raise ValueError(f"not an HdrHistogram V2 encoding: {exc}") from None


def merge(encoded: Iterable[str]) -> HdrHistogram:
    """Several stored histograms added into one (exact: same buckets, counts summed)."""
    total = HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)
    for one in encoded:
        total.add(decode(one))
    return total


def percentiles_ms(histogram: HdrHistogram) -> dict[str, float | None]:
    """p50, p90, p99 and p99.9 in ms under their metric names; None when nothing was recorded."""
    if histogram.get_total_count() == 0:
        return dict.fromkeys(PERCENTILES)
    values = histogram.get_percentile_to_value_dict(list(PERCENTILES.values()))
    return {name: values[q] / 1000.0 for name, q in PERCENTILES.items()}
