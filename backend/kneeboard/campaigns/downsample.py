"""Downsampling a series to a number of points a chart can draw. Pure functions."""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[float, dict[str, float | None]]


def downsample(rows: Sequence[Row], max_points: int) -> list[Row]:
    """At most `max_points` rows: consecutive rows averaged in equal buckets (None values skipped)."""
    if max_points < 1 or len(rows) <= max_points:
        return list(rows)
    size = len(rows) / max_points
    out: list[Row] = []
    for i in range(max_points):
        bucket = rows[int(i * size) : int((i + 1) * size)] or rows[int(i * size) : int(i * size) + 1]
        keys = {k for _, values in bucket for k in values}
        averaged = {}
        for key in keys:
            present = [v[key] for _, v in bucket if v.get(key) is not None]
            averaged[key] = sum(present) / len(present) if present else None
        out.append((sum(t for t, _ in bucket) / len(bucket), averaged))
    return out
