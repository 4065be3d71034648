"""Failover figures, campaign against campaign (issue 39): the detection and recovery times and the failed requests of
each failure event (a point's extra["failover"], analysis/failover.py), the events of every repetition pooled per side,
tested like every other metric (Welch's t-test, TOST against the practical margin; verdicts.py), lower being better.
Pure functions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .verdicts import FEW, MARGIN_PCT, MIN_REPEATS, equivalence, tested_verdict, welch


# A comparison's failover rows (compare/service.py): name, label, unit; one value per failure event, lower is better.
COMPARED = (
    ("failover_detection_ms", "Failover: detection time, event to last error (mean of failure events)", "ms"),
    ("failover_recovery_ms", "Failover: recovery time, backend back to its first answer (mean of failure events)", "ms"),
    ("failover_failed", "Failover: failed requests per failure event (mean)", "count"),
)


def event_figures(events: Iterable[dict[str, Any]]) -> dict[str, list[float]]:
    """Per COMPARED figure, its value in each failure event (a point's extra["failover"] entries) that has one: the
    detection and recovery times in ms (none when nothing failed after it, or its backend was not brought back), the
    failed requests (0 when nothing failed)."""
    found: dict[str, list[float]] = {name: [] for name, _, _ in COMPARED}
    for event in events:
        for name, value in (("failover_detection_ms", event.get("detection_s")), ("failover_recovery_ms", event.get("recovery_s"))):
            if value is not None:
                found[name].append(value * 1000)
        found["failover_failed"].append(float(sum((event.get("failed_by_class") or {}).values())))
    return found


def figure_test(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95) -> dict | None:
    """Welch's test of B's per-event values of a failover figure against A's; None with fewer than MIN_REPEATS a side.
    Its "p" is corrected with the comparison's other tests (verdicts.compare's `also`)."""
    if len(a) < MIN_REPEATS or len(b) < MIN_REPEATS:
        return None
    return welch(a, b, confidence=confidence)


def figure_verdict(a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95, margin_pct: float = MARGIN_PCT,
                   p_adjusted: float | None = None, of: str = "failure events") -> dict:
    """B's failover figure against A's, lower being better, from each side's per-event values (`p_adjusted`: the
    test's p-value once corrected with the comparison's other tests, else its own; `of`: what a value is one of):
    {"verdict", "basis", "detail", "detectable_pct", "margin_pct"}, as capacity_verdict says them."""
    tested = figure_test(a, b, confidence=confidence)
    if tested is None:
        why = f"needs ≥ {MIN_REPEATS} {of} a side (has {len(a)} and {len(b)})"
        return {"verdict": FEW, "basis": why, "detail": why, "detectable_pct": None, "margin_pct": margin_pct}
    tested.update(equivalence(tested, sum(a) / len(a), margin_pct=margin_pct, confidence=confidence))
    return tested_verdict(tested, p_adjusted, -1, confidence=confidence, basis=f"Welch's t-test on {len(a)} and {len(b)} {of}")
