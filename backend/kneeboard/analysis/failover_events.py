"""A comparison's failover table (issue 39): per failure event of a campaign's plan (the load it ran under, its action,
value and `at_s`), its figures across the repetitions that ran it: the median and the range of the detection and
recovery times, the failed requests and the error window, read from the points' extra["failover"]
(events/figures.py, analysis/failover.py). Pure functions."""

from __future__ import annotations

from collections.abc import Iterable
from statistics import median
from typing import Any

FIGURES = ("detection_s", "recovery_s", "failed", "error_window_s")  # each row's figures, in the order a table shows them


def event_values(event: dict[str, Any]) -> dict[str, float | None]:
    """One failure event's FIGURES: detection and recovery times (None when nothing failed after it, or its backend
    was not brought back), the failed requests (0 when none) and the error window's length (None when none)."""
    window = event.get("error_window")
    return {"detection_s": event.get("detection_s"), "recovery_s": event.get("recovery_s"),
            "failed": float(sum((event.get("failed_by_class") or {}).values())),
            "error_window_s": window["duration_s"] if window else None}  # fmt: skip


def across(values: Iterable[float | None]) -> dict[str, float] | None:
    """{"median", "min", "max", "n"} of the values that are there (None left out); None when none is."""
    found = [v for v in values if v is not None]
    return {"median": median(found), "min": min(found), "max": max(found), "n": len(found)} if found else None


def event_table(points: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per failure event of a plan and load, in the order the points first ran it: points are {"phase",
    "concurrency", "offered_rate", "repeat", "failover": a point's extra["failover"]}; each row is the event's phase,
    concurrency, offered_rate, action, value and at_s, `events` (how many points ran it: one per repetition), and per
    FIGURES its `across` the events (None where no event had the figure)."""
    groups: dict[tuple, list[dict]] = {}
    for point in points:
        for event in point.get("failover") or []:
            key = (point.get("phase"), point.get("concurrency"), point.get("offered_rate"), event["action"], event["value"], event["at_s"])
            groups.setdefault(key, []).append(event_values(event))
    return [{"phase": phase, "concurrency": concurrency, "offered_rate": rate, "action": action, "value": value, "at_s": at_s,
             "events": len(found), **{name: across(v[name] for v in found) for name in FIGURES}}
            for (phase, concurrency, rate, action, value, at_s), found in groups.items()]  # fmt: skip
