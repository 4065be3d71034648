"""Release gates, shared by the CLI and scheduled runs: thresholds on points, and a baseline verdict.

Pure functions on the API's JSON shapes (a campaign's points, a comparison), so the CLI and the
server read them the same way.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass, field
from typing import Any

OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
UNDECIDED = ("not enough data", "insufficient data")
_EXPR = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(<=|>=|<|>)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


@dataclass(frozen=True)
class Threshold:
    """`metric op value`, e.g. latency_avg_ms<5."""

    metric: str
    op: str
    value: float
    text: str = field(default="", compare=False)  # as written (without spaces)

    def __str__(self) -> str:
        return self.text or f"{self.metric}{self.op}{self.value:g}"


@dataclass
class ThresholdResult:
    """A threshold checked on every completed point; `failures` names each point that broke it."""

    threshold: Threshold
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No point broke the threshold."""
        return not self.failures


@dataclass(frozen=True)
class BaselineOutcome:
    """How a campaign compares with its baseline: "pass", "regression" or "inconclusive", and why."""

    outcome: str
    detail: str


def parse_threshold(text: str, metrics: set[str] | None = None) -> Threshold:
    """Parse `metric<value` (or <=, >, >=); ValueError naming the problem. `metrics`, when given, are the names allowed."""
    found = _EXPR.match(text or "")
    if not found:
        raise ValueError(f"{text!r} is not a threshold: write metric<value, metric<=value, metric>value or metric>=value")
    metric, op, value = found.group(1), found.group(2), float(found.group(3))
    if not math.isfinite(value):
        raise ValueError(f"{text!r}: the value must be a finite number")
    if metrics is not None and metric not in metrics:
        raise ValueError(f"{text!r}: unknown metric {metric!r} (this tool measures {', '.join(sorted(metrics))})")
    return Threshold(metric, op, value, f"{metric}{op}{found.group(3)}")


def _point_name(point: dict[str, Any]) -> str:
    rate = point.get("offered_rate")
    where = f"{point.get('phase')} c={point.get('concurrency')}" + (f" rate={rate:g}" if rate is not None else "")
    variant = f" [{point['variant']}]" if point.get("variant") else ""
    return f"point {point.get('seq')} ({where}{variant}, repeat {point.get('repeat', 0)})"


def check_thresholds(thresholds: list[Threshold], points: list[dict[str, Any]]) -> list[ThresholdResult]:
    """Each threshold against every completed point; a point without the metric fails it, and so does a campaign without completed points."""
    completed = [p for p in points if p.get("status") == "completed"]
    results = []
    for threshold in thresholds:
        result = ThresholdResult(threshold)
        if not completed:
            result.failures.append("no completed point")
        for point in completed:
            value = (point.get("metrics") or {}).get(threshold.metric)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                result.failures.append(f"{_point_name(point)}: no {threshold.metric} value")
            elif not OPS[threshold.op](value, threshold.value):
                result.failures.append(f"{_point_name(point)}: {threshold.metric}={value:g}, not {threshold.op} {threshold.value:g}")
        results.append(result)
    return results


def baseline_outcome(comparison: dict[str, Any], key: str) -> BaselineOutcome:
    """Read GET /compare's headline verdicts for selector `key` against the first one (the baseline).

    The one place the CLI and schedules interpret a verdict. "worse" (or "mixed": some point
    significantly worse) decided by the comparison's statistics is a regression; when no headline
    could be decided ("not enough data": too few repetitions, or no matching point) the outcome
    is inconclusive; otherwise it passes. A verdict decided without repeats (an older server's
    tolerance rule, "no repeats" in its basis) counts as undecided.
    """
    regressions, undecided, decided = [], [], []
    for row in comparison.get("headline", []):
        verdict, basis = (row.get("verdicts") or {}).get(key), (row.get("basis") or {}).get(key) or ""
        label = row.get("label") or row.get("metric")
        if verdict is None:
            continue
        if verdict in UNDECIDED or "no repeats" in basis:
            undecided.append(f"{label}: {verdict}")
        elif verdict in ("worse", "mixed"):
            regressions.append(f"{label} {verdict} ({basis})")
        else:
            decided.append(f"{label}: {verdict}")
    if regressions:
        return BaselineOutcome("regression", "; ".join(regressions))
    if not decided:
        return BaselineOutcome("inconclusive", "not enough repetitions to decide: " + ("; ".join(undecided) or "no matching point"))
    return BaselineOutcome("pass", "no significant regression: " + "; ".join(decided))
