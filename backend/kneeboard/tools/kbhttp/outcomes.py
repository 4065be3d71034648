"""kbhttp's outcome file (`--outcomes`): every request's outcome counted per 10 ms of its intended send time, and the
values of one response header per bucket and per connection (simulator/internal/httpload/outcomes.go).

The file is read after the point (at most MAX_BYTES; a cut last line is dropped) and stored on the point as
`extra["outcomes"]`, column-wise: one series per outcome class and per header value, each dense (a list, one count per
bucket) or, when mostly zeros, sparse ([[bucket, count], ...]). At 10 ms a 30 s point is 3,001 buckets: a few series of
3,001 small integers (≈ 6–9 KB each), lossless. Longer points, or many header values, are merged into wider buckets
(a whole multiple of the file's) so that the stored cells stay within MAX_CELLS and the buckets within MAX_BUCKETS:
the width stored says which. analysis/failover.py reads this form (`Outcomes.from_stored`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILE = "kbhttp-outcomes.jsonl"  # in the point's workdir: the name is Kneeboard's, never the plan's
MAX_BYTES = 32 << 20  # read at most this much of the file (1 h of 10 ms buckets with a few header values fits)
MAX_BUCKETS = 6_000  # stored buckets: 60 s at 10 ms; longer points are stored in wider buckets
MAX_CELLS = 60_000  # stored buckets × series (classes and header values that occur)
MAX_CONNECTIONS = 1_000  # connections whose counts per header value are stored (the first ones)


def read_file(path: Path, limit: int = MAX_BYTES) -> tuple[str, bool] | None:
    """The file's text (at most `limit` bytes) and whether it was cut there; None when there is no file."""
    try:
        with path.open("rb") as f:
            raw = f.read(limit + 1)
    except FileNotFoundError:
        return None
    return raw[:limit].decode("utf-8", errors="replace"), len(raw) > limit


def parse(text: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The file's text as the stored form (None when it has no head line), and warnings (a file cut short, a
    line that is not JSON)."""
    lines = text.split("\n")
    head, warnings = _json(lines[0]), []
    if not isinstance(head, dict) or head.get("kbhttp") != "outcomes":
        return None, ["the outcome file has no head line: outcomes not stored"]
    classes, values = list(head.get("classes") or []), list(head.get("values") or [])
    n = int(head.get("buckets") or 0)
    counts = {name: [0] * n for name in classes}
    by_value = {value: [0] * n for value in values}
    connections: list[list[int]] = []
    connections_total, ended, bad = 0, False, 0
    for line in lines[1:]:
        if not line.strip():
            continue
        found = _json(line)
        if not isinstance(found, dict):
            bad += 1  # a cut last line, typically
            continue
        if found.get("kbhttp") == "outcomes-end":
            ended = True
        elif "conn" in found:
            connections_total += 1
            if len(connections) < MAX_CONNECTIONS:
                connections.append([int(c) for c in found.get("h") or []])
        elif isinstance(found.get("i"), int) and 0 <= found["i"] < n:
            _add(counts, classes, found["i"], found.get("n") or [])
            _add(by_value, values, found["i"], found.get("h") or [])
    if not ended:
        warnings.append("the outcome file was cut short (no end line): its last buckets or connections may be missing")
    if bad:
        warnings.append(f"{bad} lines of the outcome file were not JSON and were left out")
    width = float(head.get("bucket_ms") or 10)
    return compact(float(head.get("start_ms") or 0) / 1000, width, counts, by_value, connections, head, connections_total), warnings


def compact(start_s: float, width_ms: float, counts: dict[str, list[int]], by_value: dict[str, list[int]],
            connections: list[list[int]], head: dict[str, Any], connections_total: int) -> dict[str, Any]:
    """The stored form: series that occur, merged into wider buckets when there are too many cells."""
    counts = {name: series for name, series in counts.items() if any(series)}
    by_value = {name: series for name, series in by_value.items() if any(series)}
    n = int(head.get("buckets") or 0)
    series = max(1, len(counts) + len(by_value))
    needed = max(1, -(-n // MAX_BUCKETS), -(-n * series // MAX_CELLS))
    factor = next(f for f in _FACTORS if f >= needed)
    return {
        "version": head.get("version"), "start": start_s, "bucket_ms": width_ms * factor, "buckets": -(-n // factor) if n else 0,
        "merged": factor, "header": head.get("header") or None,
        "classes": {name: _encode(_merge(s, factor)) for name, s in counts.items()},
        "values": {name: _encode(_merge(s, factor)) for name, s in by_value.items()},
        "value_order": [v for v in head.get("values") or [] if v in by_value],
        "connections": connections, "connections_total": connections_total,
    }  # fmt: skip


# Merging factors: round bucket widths (10 ms × 1, 2, 5, 10, 20, 50…), up to a whole point (a day at most) in one.
_FACTORS = [m * 10**e for e in range(8) for m in (1, 2, 5)]


def _json(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _add(into: dict[str, list[int]], names: list[str], i: int, row: list) -> None:
    for name, count in zip(names, row):
        if isinstance(count, int):
            into[name][i] += count


def _merge(series: list[int], factor: int) -> list[int]:
    if factor == 1:
        return series
    return [sum(series[i:i + factor]) for i in range(0, len(series), factor)]


def _encode(series: list[int]) -> list[int] | dict[str, Any]:
    """Dense, or {"n": length, "at": [[bucket, count], ...]} when fewer than a quarter of the buckets count."""
    nonzero = [[i, c] for i, c in enumerate(series) if c]
    if len(nonzero) * 4 < len(series):
        return {"n": len(series), "at": nonzero}
    return series

