"""How many trials and seconds a search takes, before it runs: the range over where the limit may lie. Pure, no I/O.

The algorithm is deterministic, so it is run against model servers rather than bounded by a formula: one whose
limit is sharp at a load C (below C every criterion is kept, above it the latency criteria fail, and the throughput
stays at C: loss and efficiency follow, and a failing trial's goodput points at C), and one limited by its latency
only (it keeps up with every load, so failing trials give no hint). C goes over the search's range and past both
ends (the search then ends at a bound), each server once steady and once with its limit moving by up to the
resolution from trial to trial (bounds then disagree and are measured again). The fewest and the most trials of
these runs are the range; a noisier server can take more, which the time budget caps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kneeboard.search.algorithm import Result, SearchConfig, Trial, search
from kneeboard.search.state import run_duration

CAPACITIES = 96  # model limits tried across the range (log-spaced), besides the two beyond its ends
MAX_TRIALS = 10_000  # a guard: the search ends long before
JITTER_SEED = 2544


START_OVERHEAD_S = 0.5  # a tool's start, before its point's duration (a plan's estimate, a search's budget, a campaign's ETA)


@dataclass(frozen=True)
class Cost:
    """What a trial costs in wall time: its run (whole seconds for a tool that takes only those), the tool's start, and
    the pause before the next one."""

    whole_seconds: bool = False
    start_s: float = 0.0
    pause_s: float = 0.0

    def trial_s(self, trial: Trial) -> float:
        """One trial's run and start."""
        return run_duration(trial.duration_s, self.whole_seconds) + self.start_s


@dataclass(frozen=True)
class Span:
    """The range of one search: trials and wall seconds, fewest to most (the pauses between its trials included)."""

    trials_min: int
    trials_max: int
    seconds_min: float
    seconds_max: float
    budget_bound: bool  # the most is where the time budget stops the search


def over_budget(spent_s: float, next_s: float, budget_s: float | None) -> bool:
    """Whether the next trial (its run, start and the pause before it) would take the search past its time budget."""
    return budget_s is not None and spent_s + next_s > budget_s + 1e-9


def _model(rate: float, capacity: float, config: SearchConfig, hints: bool) -> Result:
    """A model server's trial at `rate`: its limit is `capacity`; with `hints` its throughput stays there above it."""
    kept = rate <= capacity
    achieved = min(rate, capacity) if hints else rate
    result: Result = {"offered_rate": rate, "achieved_rate": achieved, "loss_pct": 100.0 * (1 - achieved / rate)}
    for criterion in config.criteria:
        if criterion.metric.startswith("latency_"):
            result[criterion.metric] = criterion.limit * (0.5 if kept else 2.0) if criterion.limit else (0.0 if kept else 1.0)
    return result


def _run(config: SearchConfig, capacity: float, hints: bool, cost: Cost, budget_s: float | None, jitter: float) -> tuple[int, float, bool]:
    """(trials, wall seconds, stopped by the budget) of one search against one model server, whose limit moves by up to
    ± `jitter` (relative) from trial to trial (a fixed sequence: the estimate is the same each time)."""
    gen = search(config)
    moves = np.random.default_rng(JITTER_SEED).uniform(-jitter, jitter, size=MAX_TRIALS)
    trials, spent = 0, 0.0
    try:
        trial = next(gen)
        while trials < MAX_TRIALS:
            step = cost.trial_s(trial) + (cost.pause_s if trials else 0.0)
            if over_budget(spent, step, budget_s):
                return trials, spent, True
            result = _model(trial.rate, capacity * (1 + moves[trials]), config, hints)
            trials, spent = trials + 1, spent + step
            trial = gen.send(result)
    except StopIteration:
        pass
    return trials, spent, False


@lru_cache(maxsize=256)
def span(config: SearchConfig, cost: Cost, budget_s: float | None = None) -> Span:
    """The fewest and most trials and seconds the search takes against the model servers, within `budget_s`."""
    capacities = [config.low * 0.9, config.high * 1.1, *np.geomspace(config.low, config.high, CAPACITIES)]
    runs = [_run(config, float(c), hints, cost, budget_s, jitter) for c in capacities for hints in (True, False)
            for jitter in (0.0, config.resolution_pct / 100)]
    trials, seconds = [r[0] for r in runs], [r[1] for r in runs]
    return Span(min(trials), max(trials), min(seconds), max(seconds), any(r[2] for r in runs))
