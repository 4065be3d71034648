"""Where a search stands, from its stored trials: they are replayed through the algorithm (pure, no I/O).

A stored trial answers the algorithm's request for the same (rate, duration), in any order, so a resumed
search continues from its bracket even when a trial in the middle failed and is measured again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kneeboard.analysis.capacity import AT_LEAST, BELOW, BETWEEN, statement
from kneeboard.analysis.conclusion import rate_text
from kneeboard.search.algorithm import Criterion, Found, SearchConfig, Trial, search


@dataclass(frozen=True)
class Stored:
    """A completed trial: the load it offered for how long, and its metrics."""

    rate: float
    duration_s: float
    result: dict


@dataclass
class State:
    """The trial to measure next (None once the search has ended) and, when ended, one Found per criterion."""

    next: Trial | None
    found: list[Found] | None
    used: int  # stored trials the replay used


def config_of(phase: dict) -> SearchConfig:
    """A plan's search phase (as stored) as the algorithm's config."""
    return SearchConfig(
        low=float(phase["low"]), high=float(phase["high"]),
        criteria=tuple(Criterion(c["metric"], float(c["limit"])) for c in phase["criteria"]),
        resolution_pct=float(phase.get("resolution_pct", 1.0)), max_duration_s=float(phase["duration_s"]),
        min_duration_s=phase.get("min_duration_s"), repeats=int(phase.get("repeats", 3)),
    )  # fmt: skip


def run_duration(seconds: float, whole_seconds: bool) -> float:
    """How long a trial really runs: whole seconds (rounded up) for a tool that takes only those."""
    return float(math.ceil(seconds - 1e-9)) if whole_seconds else round(seconds, 6)


def replay(config: SearchConfig, stored: Sequence[Stored], whole_seconds: bool = False) -> State:
    """Feed the stored trials to the algorithm until it asks for one not stored (or ends)."""
    left = list(stored)
    gen = search(config)
    used = 0
    try:
        trial = next(gen)
        while True:
            wanted = run_duration(trial.duration_s, whole_seconds)
            match = next((s for s in left if math.isclose(s.rate, trial.rate, rel_tol=1e-9) and math.isclose(s.duration_s, wanted)), None)
            if match is None:
                return State(trial, None, used)
            left.remove(match)
            used += 1
            trial = gen.send(match.result)
    except StopIteration as stop:
        return State(None, stop.value, used)


def found_dict(found: Found, unit: str, resolution_pct: float) -> dict:
    """One criterion's capacity for the report: kind, value, its interval (the bracket) and how to say it."""
    text = statement({"kind": found.kind, "value": found.value}, unit).replace("the SLO", "the criterion")
    if found.kind == BETWEEN:
        text += f" [{rate_text(found.low, unit)}–{rate_text(found.high, unit)}]"
    return {"criterion": found.criterion.label, "metric": found.criterion.metric, "limit": found.criterion.limit,
            "kind": found.kind, "value": found.value, "low": found.low, "high": found.high, "trials": found.trials,
            "resolution_pct": resolution_pct, "statement": text}  # fmt: skip


def bracket(trial: Trial, config: SearchConfig) -> dict:
    """Where a running search stands: the criterion it is on, its bracket, the trial asked for."""
    return {"criterion": config.criteria[trial.criterion].label, "low": trial.low, "high": trial.high, "rate": trial.rate,
            "duration_s": trial.duration_s, "stage": trial.stage, "range": [config.low, config.high]}  # fmt: skip


__all__ = ["AT_LEAST", "BELOW", "BETWEEN", "State", "Stored", "bracket", "config_of", "found_dict", "replay", "run_duration"]
