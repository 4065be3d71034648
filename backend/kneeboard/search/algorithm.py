"""Find capacity with the fewest trial-seconds: bracket, then bisect, short trials first (after MLRsearch).

`search(config)` is a generator: it yields the next Trial (rate, duration) and is sent the
trial's result (a metrics dict: "achieved_rate", the latencies, "loss_pct"...). It is
deterministic, so a search is resumed by replaying its stored trials (:func:`replay`).

Per criterion, in stages: stage i runs trials of duration d_i (from `min_duration_s`, doubling
up to `max_duration_s`) and narrows the bracket [lo, hi] (lo: the highest load that met the
criterion, hi: the lowest that did not) to a width w_i (halving down to `resolution_pct`). A
bound measured by shorter trials is measured again at the stage's duration before it is
trusted; at the last stage the lower bound is repeated until most of `repeats` full-length trials
agree (a load fails when most of its trials did). A failure stands across stages until the last,
where the final upper bound is measured at full length too (a pass there moves the bracket up, by one
width, then two, four…: a short trial spoiled far below the limit is climbed back in few steps). A failing lower-bound
candidate moves it down the same way (one width, then two, four… until one passes), then the bracket is bisected. A failing
trial's goodput (what got through) is tried next when it falls inside the bracket: under a loss
criterion it is close to the capacity. A pass makes that hint stale (the next step bisects), so a
hint that undershoots cannot make the search creep up one width at a time. Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field

from kneeboard.analysis.capacity import AT_LEAST, BELOW, BETWEEN

Result = dict


@dataclass(frozen=True)
class Criterion:
    """One limit a load must keep: `metric` ≤ `limit` (or ≥ for efficiency)."""

    metric: str  # a latency (ms), "loss_pct", or "efficiency_pct"
    limit: float

    @property
    def at_least(self) -> bool:
        """Efficiency must stay above its limit; the others below."""
        return self.metric == "efficiency_pct"

    def passes(self, result: Result) -> bool:
        """Whether a trial kept the limit (a trial that measured nothing does not)."""
        value = measured(result, self.metric)
        if value is None:
            return False
        return value >= self.limit if self.at_least else value <= self.limit

    @property
    def label(self) -> str:
        """ "latency_p99_ms ≤ 10" """
        return f"{self.metric} {'≥' if self.at_least else '≤'} {self.limit:g}"


def goodput(result: Result) -> float | None:
    """What got through: the achieved rate less the answers that were errors (kbhttp's 503s are answers)."""
    achieved = result.get("achieved_rate")
    if achieved is None:
        return None
    completed, errors = result.get("completed"), result.get("errors")
    if completed and errors is not None:
        return achieved * max(0.0, completed - errors) / completed
    return achieved


def limit_hint(result: Result) -> float | None:
    """Where a failing trial says the limit is. An open-loop tool that accounts for every intended request (kbhttp:
    `dropped`) says it exactly: the offered load less what was lost, refused or never sent (its achieved rate is over
    the run with its drain, too low for a trial as short as the service time). Otherwise the goodput."""
    offered, loss = result.get("offered_rate"), measured(result, "loss_pct")
    if offered and loss is not None and "dropped" in result:
        return offered * max(0.0, 1 - loss / 100)
    return goodput(result)


def measured(result: Result, metric: str) -> float | None:
    """A criterion's metric of a trial; loss counts error answers too, efficiency is goodput / offered in %."""
    if metric == "efficiency_pct":
        good, offered = goodput(result), result.get("offered_rate")
        return 100.0 * good / offered if good is not None and offered else None
    if metric == "loss_pct":
        sent, completed, errors, dropped = (result.get(k) for k in ("sent", "completed", "errors", "dropped"))
        if sent is not None and completed is not None and errors is not None:
            intended = sent + (dropped or 0)
            return 100.0 * (intended - completed + errors) / intended if intended else None
    value = result.get(metric)
    return float(value) if value is not None else None


@dataclass(frozen=True)
class Trial:
    """One measurement the search asks for."""

    rate: float
    duration_s: float
    criterion: int  # which criterion it is searching for
    stage: int
    low: float | None = field(default=None, compare=False)  # the bracket when it was asked (for the live view)
    high: float | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SearchConfig:
    """What to search: a load range, the criteria, the resolution (% of the load) and the trial lengths."""

    low: float
    high: float
    criteria: tuple[Criterion, ...]
    resolution_pct: float = 1.0
    max_duration_s: float = 10.0
    min_duration_s: float | None = None  # default: max_duration_s / 8, at least 0.5 s
    repeats: int = 3  # full-length trials of the final lower bound: most of them must pass (MLRsearch's exceed ratio ½)

    def durations(self) -> list[float]:
        """Each stage's trial length, doubling from the shortest to the longest."""
        shortest = min(self.max_duration_s, self.min_duration_s or max(0.5, self.max_duration_s / 8))
        stages = max(0, math.ceil(math.log2(self.max_duration_s / shortest) - 1e-9))
        return [self.max_duration_s / 2 ** (stages - i) for i in range(stages + 1)]

    def widths(self) -> list[float]:
        """Each stage's bracket width to reach (relative), halving down to the resolution."""
        n = len(self.durations())
        return [self.resolution_pct / 100.0 * 2 ** (n - 1 - i) for i in range(n)]


@dataclass
class _Bound:
    rate: float
    results: list[Result] = field(default_factory=list)


@dataclass
class Found:
    """One criterion's capacity: its kind, the value (the highest load that met it: the offered load, as RFC 2544
    reports throughput; the lowest load tested when none did), the bracket."""

    criterion: Criterion
    kind: str
    value: float | None
    low: float | None
    high: float | None
    trials: int = 0


def _narrow(lo: float, hi: float, width: float) -> bool:
    return (hi - lo) / lo <= width


def _guess(lo: float, hi: float, failed: Result, width: float) -> float:
    """The next load inside (lo, hi): near the last failing trial's goodput when it says where the limit is, else the middle.

    Under overload the goodput is about the capacity: at or below lo, try one width above lo.
    """
    middle = (lo + hi) / 2
    good = limit_hint(failed) if failed else None
    if good is None or good >= hi:
        return middle
    return min(max(good, lo * (1 + width)), middle) if good <= lo * (1 + width) else min(good, hi * (1 - width / 2), middle * 2 - lo)


def _start_low(low: float, hi: float, failed: Result, width: float) -> float:
    """The first lower-bound candidate under a failing `hi`: just under its goodput when that is in range, else the range's bottom."""
    good = limit_hint(failed) if failed else None
    if good is not None and low < good * (1 - width / 2) < hi:
        return good * (1 - width / 2)
    return low


def _criterion_search(config: SearchConfig, index: int, known: dict[tuple[float, float], list[Result]],
                      start: tuple[float | None, float | None]) -> Generator[Trial, Result, Found]:
    """Search one criterion; `known` holds every result so far, by (rate, duration) (shared across criteria)."""
    crit = config.criteria[index]
    durations, widths = config.durations(), config.widths()
    lo, hi = start
    last_fail: Result = {}
    count = 0
    climb = 1  # widths the next step above a final upper bound that passed at full length goes: 1, 2, 4…
    fall = 1  # widths the next step under a failing lower-bound candidate goes: 1, 2, 4… until one passes (MLRsearch's
    # external search: a capacity far under the range's top is reached in a few trials, not one width at a time)

    def measure(rate: float, stage: int) -> Generator[Trial, Result, bool]:
        nonlocal count, last_fail, fall
        result = yield Trial(rate, durations[stage], index, stage, lo, hi)
        known.setdefault((rate, durations[stage]), []).append(result)
        count += 1
        ok = crit.passes(result)
        last_fail = {} if ok else result  # a pass above the last failure's hint makes the hint stale
        fall = 1 if ok else fall
        return ok

    def fall_under(rate: float, width: float) -> float | None:
        nonlocal fall
        step, fall = width * fall, fall * 2
        return step_down(rate, min(step, 0.5))  # at most halving the load at a step

    def seen(rate: float, stage: int) -> list[bool]:
        return [crit.passes(r) for r in known.get((rate, durations[stage]), [])]

    def step_up(rate: float, width: float) -> float | None:
        return None if rate >= config.high else min(config.high, rate * (1 + width))

    def step_down(rate: float, width: float) -> float | None:
        return None if rate <= config.low else max(config.low, rate * (1 - width))

    for stage, width in enumerate(widths):
        final = stage == len(widths) - 1
        if not final and ((lo is not None and hi is None) or (lo is None and hi is not None and hi <= config.low)):
            continue  # a bound of the range: only the full-length trials can settle it
        while True:
            if lo is None and hi is None:
                if (yield from measure(config.high, stage)):
                    lo = config.high
                else:
                    hi = config.high
                continue
            # a pass from shorter trials is measured again at this length; a failure stands (a load that
            # already failed a short trial fails a longer one: MLRsearch's treatment of upper bounds)
            if lo is not None and not seen(lo, stage):
                if not (yield from measure(lo, stage)):
                    lo, hi = fall_under(lo, width), lo
                continue
            if lo is None:
                if hi > config.low:
                    lo = _start_low(config.low, hi, last_fail, width)  # measured next
                    continue
                break  # below the range
            votes, needed = seen(lo, stage), (config.repeats if final else 1) // 2 + 1
            if votes.count(False) >= needed:  # failed most of its trials: not a lower bound
                lo, hi = fall_under(lo, width), lo
                continue
            if votes.count(True) < needed:  # the boundary is repeated until most of its trials agree
                yield from measure(lo, stage)
                continue
            if final and hi is not None and not seen(hi, stage):
                # an upper bound from shorter trials is measured at full length before the search ends on it: a short
                # trial is the more easily spoiled (the tool's start, a stall of a loaded machine weigh more in it)
                if (yield from measure(hi, stage)):
                    lo, hi = hi, step_up(hi, width * climb)
                    climb *= 2  # shorter trials were spoiled further down than one width: gallop, then bisect back
                continue
            if hi is None or _narrow(lo, hi, width):
                break
            rate = _guess(lo, hi, last_fail, width)
            if (yield from measure(rate, stage)):
                lo = rate
            else:
                hi = rate
    kind = BETWEEN if lo is not None and hi is not None else AT_LEAST if lo is not None else BELOW
    value = lo if lo is not None else hi  # the load tested, as RFC 2544 and MLRsearch report it
    return Found(crit, kind, value, lo, hi, count)


def search(config: SearchConfig) -> Generator[Trial, Result, list[Found]]:
    """Every criterion in turn, sharing trials; yields Trials, is sent their results, returns one Found per criterion."""
    known: dict[tuple[float, float], list[Result]] = {}
    found = []
    for index in range(len(config.criteria)):
        found.append((yield from _criterion_search(config, index, known, (None, None))))
    return found


def run(config: SearchConfig, measure: Callable[[Trial], Result]) -> tuple[list[Found], list[tuple[Trial, Result]]]:
    """Drive a search with `measure` (trial → result); returns what it found and every trial with its result."""
    done: list[tuple[Trial, Result]] = []
    return replay(config, [], measure, done), done


def replay(config: SearchConfig, stored: Sequence[Result], measure: Callable[[Trial], Result],
           done: list[tuple[Trial, Result]] | None = None) -> list[Found]:
    """Resume: the first `len(stored)` trials take their stored results, later ones are measured."""
    done = [] if done is None else done
    gen = search(config)
    answers: Iterable[Result] = iter(stored)
    try:
        trial = next(gen)
        while True:
            result = next(answers, None)  # type: ignore[call-overload]
            if result is None:
                result = measure(trial)
            done.append((trial, result))
            trial = gen.send(result)
    except StopIteration as stop:
        return stop.value


def rfc2544(low: float, high: float, resolution_pct: float, passes: Callable[[float], bool]) -> tuple[float | None, int]:
    """RFC 2544 §26.1's binary search, every trial at full length: (the highest passing load or None, trials run)."""
    if passes(high):
        return high, 1
    if not passes(low):
        return None, 2
    lo, hi, trials = low, high, 2
    while (hi - lo) / lo > resolution_pct / 100:
        rate = (lo + hi) / 2
        trials += 1
        if passes(rate):
            lo = rate
        else:
            hi = rate
    return lo, trials
