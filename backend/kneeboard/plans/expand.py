"""Expanding a plan to its points, and estimating how long they take. Pure functions."""

from __future__ import annotations

from kneeboard.plans.phases import load_count, phase_loads
from kneeboard.plans.schemas import AnyPlan, PointPreview
from kneeboard.tools.registry import adapter

START_OVERHEAD_S = 0.5


def count_points(plan: AnyPlan) -> int:
    """How many points `expand` would make (variants × phase loads × repeats), without expanding: check caps with it first."""
    return max(1, len(plan.variants)) * sum(load_count(phase) for phase in plan.phases) * plan.repeat


def expand(plan: AnyPlan) -> list[PointPreview]:
    """Every point in run order: for each repetition, each variant, each phase, each load.

    Repetitions are whole passes and variants alternate inside each pass (A, B, A, B…), so a
    slow drift of the system or the machine hits both sides of a comparison alike.
    """
    variants = [v.label for v in plan.variants] or [None]
    per_unit = adapter(plan.tool).rate_per_concurrency
    points: list[PointPreview] = []
    for repeat in range(plan.repeat):
        for variant in variants:
            for index, phase in enumerate(plan.phases):
                for concurrency, rate in phase_loads(phase):
                    if per_unit and rate is not None and phase.kind not in {"scalability", "search"}:
                        rate = rate * concurrency  # a per-device rate (scalability's unit_rate and a search's range already are totals); points offer the total
                    points.append(PointPreview(seq=len(points), variant=variant, phase_index=index, phase=phase.kind,
                                               concurrency=concurrency, offered_rate=rate, duration_s=phase.duration_s,
                                               repeat=repeat))  # fmt: skip
    return points


def estimate_seconds(points: list[PointPreview], pause_s: float) -> float:
    """Estimated wall time: each point's duration and start-up, plus the pauses between points."""
    if not points:
        return 0.0
    return sum(p.duration_s + START_OVERHEAD_S for p in points) + pause_s * (len(points) - 1)
