"""Parser for the CSV written by the seed's benchmark script (pure: takes the text).

Format: a header line ``Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms``
then one line per dnsperf run. Test_Type is Scalability, Capacity (Kneeboard's
saturation phase) or Stability. StdDev_ms may be empty. When dnsperf failed the script
writes empty Actual_QPS and Avg_Latency_ms: such a line becomes a point with status
"failed" and no metrics. A line repeating an earlier (type, concurrency, target) gets
the next repeat index. Blank lines are skipped.
"""

from __future__ import annotations

from kneeboard.states import PointStatus
import csv
import io
import math

HEADER = ("Test_Type", "Concurrency", "Target_QPS", "Actual_QPS", "Avg_Latency_ms", "StdDev_ms")
PHASE_OF = {"scalability": "scalability", "capacity": "saturation", "stability": "stability"}


class ImportFormatError(ValueError):
    """A malformed import file; line and column are 1-based."""

    def __init__(self, line: int, column: int, message: str) -> None:
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"line {line}, column {column}: {message}")


def _number(text: str, line: int, col: int, *, integer: bool = False) -> float | int:
    name = HEADER[col - 1]
    s = text.strip()
    try:
        value = int(s) if integer else float(s)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise ImportFormatError(line, col, f"{name} must be {kind}, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise ImportFormatError(line, col, f"{name} must be a finite number ≥ 0, got {text!r}")
    return value


def parse_seed_csv(text: str, *, variant: str | None = None) -> list[dict]:
    """Parse the seed script's CSV into point dicts (see kneeboard.analysis).

    Raises ImportFormatError naming the line and column of the first problem: a wrong
    header, a wrong number of fields, an unknown Test_Type, a value that is not a
    non-negative finite number (Concurrency a positive integer), or a file with no data.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text))
    points: list[dict] = []
    seen: dict[tuple, int] = {}
    header_seen = False
    for row in reader:
        line = reader.line_num
        if not row or all(not f.strip() for f in row):
            continue
        if not header_seen:
            for i, expected in enumerate(HEADER):
                got = row[i].strip() if i < len(row) else ""
                if got != expected:
                    raise ImportFormatError(
                        line, i + 1, f"header field {i + 1} must be {expected!r}, got {got!r}"
                    )
            if len(row) > len(HEADER):
                raise ImportFormatError(line, len(HEADER) + 1, "unexpected extra header field")
            header_seen = True
            continue
        if len(row) != len(HEADER):
            col = min(len(row), len(HEADER)) + 1
            raise ImportFormatError(line, col, f"expected {len(HEADER)} fields, found {len(row)}")
        kind = row[0].strip()
        phase = PHASE_OF.get(kind.lower())
        if phase is None:
            raise ImportFormatError(
                line, 1, f"Test_Type must be Scalability, Capacity or Stability, got {kind!r}"
            )
        concurrency = _number(row[1], line, 2, integer=True)
        if concurrency < 1:
            raise ImportFormatError(line, 2, "Concurrency must be at least 1")
        target = float(_number(row[2], line, 3))
        actual_s, latency_s, stddev_s = (f.strip() for f in row[3:6])
        if not actual_s and not latency_s:
            status, actual, latency = PointStatus.FAILED, None, None
        else:
            status = PointStatus.COMPLETED
            actual = float(_number(row[3], line, 4))
            latency = float(_number(row[4], line, 5))
        stddev = float(_number(row[5], line, 6)) if stddev_s else None
        key = (phase, concurrency, target)
        repeat = seen.get(key, 0)
        seen[key] = repeat + 1
        points.append(
            {
                "phase": phase,
                "concurrency": concurrency,
                "offered_rate": target,
                "achieved_rate": actual,
                "latency_avg_ms": latency,
                "latency_stddev_ms": stddev,
                "loss_pct": None,
                "repeat": repeat,
                "status": status,
                "variant": variant,
            }
        )
    if not header_seen:
        raise ImportFormatError(1, 1, "empty file: expected the header " + ",".join(HEADER))
    if not points:
        raise ImportFormatError(reader.line_num + 1, 1, "no data lines after the header")
    return points
