"""Expanding a plan to its points, and estimating how long they take. Pure functions."""

from __future__ import annotations

from kneeboard.plans.phases import SearchPhase, derived_fractions, found_bound, load_count, phase_loads
from kneeboard.plans.schemas import AnyPlan, PointPreview
from kneeboard.search.estimate import START_OVERHEAD_S, Cost, span
from kneeboard.search.schemas import SearchEstimate
from kneeboard.search.state import config_of
from kneeboard.tools.registry import adapter


def count_points(plan: AnyPlan) -> int:
    """How many points `expand` would make (variants × phase loads × repeats), without expanding: check caps with it first."""
    return max(1, len(plan.variants)) * sum(load_count(phase) for phase in plan.phases) * most_passes(plan)


def most_passes(plan: AnyPlan) -> int:
    """The most passes a plan can run: `repeat`, or repeat until decided's max_passes (the bound for caps and schedules)."""
    until = getattr(plan, "until_decided", None)
    return max(plan.repeat, until.max_passes) if until is not None else plan.repeat


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
                derived = derived_fractions(phase)
                bound = found_bound(plan.phases, derived[0], per_unit) if derived else None
                for k, (concurrency, rate) in enumerate(phase_loads(phase, bound)):
                    if per_unit and rate is not None and phase.kind not in {"scalability", "search"} and not derived:
                        rate = rate * concurrency  # a per-device rate (scalability's unit_rate and a search's range already are totals); points offer the total
                    points.append(PointPreview(seq=len(points), variant=variant, phase_index=index, phase=phase.kind,
                                               concurrency=concurrency, offered_rate=rate, duration_s=phase.duration_s,
                                               repeat=repeat, rate_from=derived and rate_text_of(derived[0], derived[1][k], rate)))  # fmt: skip
    return points


def rate_text_of(found: dict, fraction: float, most: float | None = None) -> str:
    """Where a derived rate comes from: before a run, with the most it can be (the preview's range)."""
    criterion = f" (criterion {found.get('criterion', 0) + 1})" if found["of"] == "capacity" else ""
    upto = f", resolved when its phase starts (at most {most:,.0f})" if most is not None else ""
    return f"{fraction * 100:g} % of the {found['of']}{criterion} found by phase {found['phase']!r}{upto}{why_said(found)}"


def why_said(found: dict) -> str:
    """The plan's reason for a derived load's figure and fraction, as said after its rate ("" when it gives none)."""
    return f" ({found['why']})" if found.get("why") else ""


def estimate_seconds(points: list[PointPreview], pause_s: float) -> float:
    """Estimated wall time: each point's duration and start-up, plus the pauses between points."""
    if not points:
        return 0.0
    return sum(p.duration_s + START_OVERHEAD_S for p in points) + pause_s * (len(points) - 1)


def search_estimates(plan: AnyPlan) -> list[SearchEstimate]:
    """Each search phase's range of trials and seconds per run (search/estimate.py), and how many times it runs."""
    cost = Cost(adapter(plan.tool).whole_seconds, START_OVERHEAD_S, plan.pause_s)
    runs = max(1, len(plan.variants)) * plan.repeat
    estimates = []
    for index, phase in enumerate(plan.phases):
        if isinstance(phase, SearchPhase):
            found = span(config_of(phase.model_dump()), cost, phase.time_budget_s)
            estimates.append(SearchEstimate(phase_index=index, runs=runs, trials_min=found.trials_min, trials_max=found.trials_max,
                                            seconds_min=found.seconds_min, seconds_max=found.seconds_max,
                                            time_budget_s=phase.time_budget_s, budget_bound=found.budget_bound))  # fmt: skip
    return estimates


def estimate_range(points: list[PointPreview], pause_s: float, searches: list[SearchEstimate]) -> tuple[float, float]:
    """The plan's wall time, fewest to most seconds: the other points as :func:`estimate_seconds` counts them, each
    search's run (the point it expands to) as its range, and the pauses between points."""
    if not points:
        return 0.0, 0.0
    searched = {s.phase_index: s for s in searches}
    fixed = estimate_seconds([p for p in points if p.phase_index not in searched], 0.0) + pause_s * (len(points) - 1)
    least = fixed + sum(searched[p.phase_index].seconds_min for p in points if p.phase_index in searched)
    most = fixed + sum(searched[p.phase_index].seconds_max for p in points if p.phase_index in searched)
    return least, most
