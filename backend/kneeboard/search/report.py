"""A campaign's searches for its analysis: per search (phase × variant × repetition), the capacity per criterion
with its interval, or the bracket it had reached when it stopped. Reads stored points only; no I/O of its own."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from kneeboard.db import as_utc
from kneeboard.search.algorithm import Trial
from kneeboard.search.estimate import START_OVERHEAD_S, Cost, over_budget
from kneeboard.analysis.conclusion import rate_text
from kneeboard.search.state import AT_LEAST, BELOW, BETWEEN, Stored, bracket, config_of, found_dict, replay
from kneeboard.states import PointStatus


def group_key(point: Any) -> tuple[int, str | None, int]:
    """Which search a point belongs to: its phase, variant and repetition."""
    return point.phase_index, point.variant, point.repeat


def stored_trials(points: Iterable[Any]) -> list[Stored]:
    """A search's completed trials, in run order, as the algorithm reads them."""
    done = sorted((p for p in points if p.status == PointStatus.COMPLETED), key=lambda p: p.seq)
    return [Stored(p.offered_rate, p.duration_s, {**(p.metrics or {}), "offered_rate": p.offered_rate}) for p in done]


def spent_s(points: Iterable[Any], pause_s: float) -> float:
    """The wall seconds a search's trials took so far: each ended trial from its start to its end, and the pauses between."""
    ran = [(as_utc(p.ended_at) - as_utc(p.started_at)).total_seconds() for p in points
           if p.status in {PointStatus.COMPLETED, PointStatus.FAILED} and p.started_at and p.ended_at]  # fmt: skip
    return sum(ran) + pause_s * max(0, len(ran) - 1)


def budget_stop(phase: dict, points: Iterable[Any], trial: Trial, whole_seconds: bool, pause_s: float) -> str | None:
    """Why the search ends before `trial` (its next): the trial would take it past its time budget; None otherwise."""
    budget, points = phase.get("time_budget_s"), list(points)
    if budget is None:
        return None
    spent, cost = spent_s(points, pause_s), Cost(whole_seconds, START_OVERHEAD_S, pause_s)
    step = cost.trial_s(trial) + (pause_s if any(p.status == PointStatus.COMPLETED for p in points) else 0.0)
    if not over_budget(spent, step, budget):
        return None
    return f"stopped at its time budget of {budget:g} s: {spent:.1f} s spent, the next trial would take {step:.1f} s more"


def search_report(phases: list[dict], points: Iterable[Any], unit: str, whole_seconds: bool = False, pause_s: float = 0.0) -> list[dict]:
    """One entry per search phase run: {phase_index, variant, repeat, done, trials, trial_seconds, criteria | bracket}, and
    `stopped` when its time budget ended it before the end (`pause_s`: the plan's pause between trials)."""
    groups: dict[tuple, list] = {}
    for point in points:
        if phases[point.phase_index].get("kind") == "search":
            groups.setdefault(group_key(point), []).append(point)
    report = []
    for (index, variant, repeat), members in groups.items():
        config, trials = config_of(phases[index]), stored_trials(members)
        state = replay(config, trials, whole_seconds)
        entry: dict[str, Any] = {"phase_index": index, "variant": variant, "repeat": repeat, "done": state.next is None,
                                 "trials": len(trials), "trial_seconds": sum(t.duration_s for t in trials), "unit": unit}  # fmt: skip
        if state.found is not None:
            entry["criteria"] = [_flag_generator(found_dict(f, unit, config.resolution_pct), members, unit) for f in state.found]
        else:
            entry["bracket"] = bracket(state.next, config)
            stopped = budget_stop(phases[index], members, state.next, whole_seconds, pause_s)
            if stopped:
                entry["stopped"] = stopped
        report.append(entry)
    return report


def _flag_generator(found: dict, members: list, unit: str) -> dict:
    """A criterion whose failing bound (`high`) was a trial the generator did not send (analysis/generator.py) is
    flagged: the search read the generator's limit as the server's, whose capacity may lie higher."""
    if found["high"] is None:
        return found
    verdict = next((v for p in members if p.status == PointStatus.COMPLETED and p.offered_rate is not None
                    and math.isclose(p.offered_rate, found["high"], rel_tol=1e-9)
                    and (v := (p.extra or {}).get("generator") or {}).get("limited")), None)  # fmt: skip
    if verdict is None:
        return found
    limited = {"offered_rate": found["high"], "sent_pct": verdict["sent_pct"], "cause": verdict["cause"], "suggestion": verdict["suggestion"]}
    note = (f" — but the generator sent only {verdict['sent_pct']:g} % of {rate_text(found['high'], unit)} ({verdict['cause']}): the server's "
            f"capacity may be higher; {verdict['suggestion']}")  # fmt: skip
    return {**found, "generator_limited": limited, "statement": found["statement"] + note}
