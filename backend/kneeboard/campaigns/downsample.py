"""Downsampling a series to a number of points a chart can draw. Pure functions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain

import numpy as np

Row = tuple[float, dict[str, float | None]]
MAX_SERIES_POINTS = 2000  # the most a chart can draw; a request for more is clamped to it


def downsample(rows: Sequence[Row], max_points: int) -> list[Row]:
    """At most `max_points` rows: consecutive rows averaged in equal buckets (None values skipped;
    a key no row of a bucket has stays out of that bucket's values)."""
    if max_points < 1 or len(rows) <= max_points:
        return list(rows)
    size = len(rows) / max_points
    starts = np.array([int(i * size) for i in range(max_points)])
    used = min(len(rows), int(max_points * size))
    rows = rows[:used]
    widths = np.diff(np.append(starts, used))
    times = np.add.reduceat(np.array([t for t, _ in rows], dtype=float), starts) / widths
    values = [v for _, v in rows]
    keys = list(dict.fromkeys(chain.from_iterable(values)))
    columns, present = [], []
    for key in keys:
        got = [v.get(key) for v in values]
        raw = np.array([math.nan if x is None else x for x in got], dtype=float)  # None and absent become nan
        valid = ~np.isnan(raw)
        counted = np.add.reduceat(valid.astype(np.int64), starts)
        means = np.add.reduceat(np.where(valid, raw, 0.0), starts) / np.maximum(counted, 1)
        columns.append([m if c else None for m, c in zip(means.tolist(), counted.tolist())])
        present.append(np.add.reduceat(np.array([key in v for v in values]), starts) > 0)
    if all(p.all() for p in present):  # the usual case: every bucket has every key
        return [(t, dict(zip(keys, values))) for t, values in zip(times.tolist(), zip(*columns))]
    return [(t, {k: col[i] for k, col, has in zip(keys, columns, present) if has[i]}) for i, t in enumerate(times.tolist())]
