"""Stored latency histograms: HdrHistogram V2 compressed, base64 (as kblat writes them), values in µs.

Build one from (value, count) pairs and encode it, decode one, merge several exactly (intervals
into a point, a point across agents), and read the percentiles Kneeboard reports. Pure: no I/O.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence

from hdrh.histogram import HdrHistogram

LOWEST_US, HIGHEST_US, DIGITS = 1, 100_000_000, 3  # kblat's range and precision
PERCENTILES = {"latency_p50_ms": 50.0, "latency_p90_ms": 90.0, "latency_p99_ms": 99.0, "latency_p999_ms": 99.9}


def from_counts(pairs: Iterable[tuple[int, int]]) -> HdrHistogram:
    """A histogram of (value in µs, count) pairs; values are clamped into the range, as kblat records them."""
    histogram = HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)
    for value, count in pairs:
        histogram.record_value(min(max(int(value), LOWEST_US), HIGHEST_US), int(count))
    return histogram


def encode(histogram: HdrHistogram) -> str:
    """The stored form: V2 compressed, base64 (what `decode` reads back)."""
    return histogram.encode().decode("ascii")


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


def without_intervals(extra: dict) -> dict:
    """A result's extra without its per-interval histograms (the bulk of a long point; the histogram
    route reads them), saying how many are stored: {"hdr_intervals_stored": n}; kbhttp's outcomes per 10 ms likewise
    ({"outcomes_stored": true}). Fanned shares alike."""
    slim = {k: v for k, v in extra.items() if k not in ("hdr_intervals", "outcomes")}
    if "hdr_intervals" in extra:
        slim["hdr_intervals_stored"] = len(extra["hdr_intervals"] or [])
    if "outcomes" in extra:
        slim["outcomes_stored"] = bool(extra["outcomes"])
    if isinstance(extra.get("shares"), list):
        slim["shares"] = [without_intervals(s) if isinstance(s, dict) else s for s in extra["shares"]]
    return slim


TABLE = (50.0, 90.0, 99.0, 99.9, 99.99)  # the percentile table a histogram view shows
MAX_BUCKETS = 200
MIN_RATIO = 1.02  # neighbouring buckets' bounds differ by at least 2 % (finer is below what a chart shows)


def steady_part(intervals: Iterable[Sequence], warmup_s: float) -> list[str]:
    """The encoded interval histograms ([t_epoch_s, encoded] pairs) from `warmup_s` after the first on (the steady window's rule)."""
    pairs = sorted((float(t), encoded) for t, encoded in intervals)
    return [] if not pairs else [encoded for t, encoded in pairs if t - pairs[0][0] >= warmup_s]


def _bounds_us(low: int, high: int, max_buckets: int) -> list[int]:
    """Log-spaced whole-µs upper bounds from `low` to `high` (both included), at most `max_buckets` of them."""
    if high <= low:
        return [high]
    n = max(2, min(max_buckets, math.ceil(math.log(high / low) / math.log(MIN_RATIO)) + 1))
    ratio = (high / low) ** (1 / (n - 1))
    return sorted({min(high, math.ceil(low * ratio**i)) for i in range(n)} | {high})


def distribution_ms(histogram: HdrHistogram, max_buckets: int = MAX_BUCKETS) -> dict:
    """A histogram for a chart: count, min, max, mean, the percentile table and log-spaced buckets, in ms.

    Each bucket is {"from_ms", "value_ms" (its upper bound, included), "count", "percentile" (the share of
    values up to its upper bound, in %)}; empty buckets between the first and the last are kept so bar widths
    stay true. At most `max_buckets` buckets.
    """
    total = histogram.get_total_count()
    if total == 0:
        return {"count": 0, "min_ms": None, "max_ms": None, "mean_ms": None,
                "percentiles": [{"percentile": q, "value_ms": None} for q in TABLE], "buckets": []}  # fmt: skip
    low = histogram.get_highest_equivalent_value(histogram.get_min_value())
    high = histogram.get_max_value()
    bounds = _bounds_us(low, high, max_buckets)
    counts = [0] * len(bounds)
    for step in histogram.get_recorded_iterator():
        counts[min(bisect.bisect_left(bounds, step.value_iterated_to), len(bounds) - 1)] += step.count_at_value_iterated_to
    buckets, running, start = [], 0, histogram.get_min_value() - 1  # bounds are whole µs: the first bucket is (min − 1, min]
    for bound, count in zip(bounds, counts):
        running += count
        buckets.append({"from_ms": start / 1000.0, "value_ms": bound / 1000.0, "count": count, "percentile": 100.0 * running / total})
        start = bound
    values = histogram.get_percentile_to_value_dict(list(TABLE))
    return {
        "count": total, "min_ms": histogram.get_min_value() / 1000.0, "max_ms": high / 1000.0,
        "mean_ms": histogram.get_mean_value() / 1000.0,
        "percentiles": [{"percentile": q, "value_ms": values[q] / 1000.0} for q in TABLE], "buckets": buckets,
    }  # fmt: skip
