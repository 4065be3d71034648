"""A search's preview: its range of trials and seconds, its time budget, and its progress (trials and bracket)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from pydantic import TypeAdapter, ValidationError

from kneeboard.campaigns.progress import narrowed_pct
from kneeboard.plans.expand import START_OVERHEAD_S, estimate_range, expand, search_estimates
from kneeboard.plans.schemas import PlanBody
from kneeboard.search.algorithm import Criterion, SearchConfig, Trial, run
from kneeboard.search.estimate import Cost, span
from kneeboard.search.report import budget_stop, search_report, stored_trials
from kneeboard.search.state import config_of, replay, run_duration
from kneeboard.states import PointStatus
from tests.unit.test_search_algorithm import CONFIG, server

PLAN = TypeAdapter(PlanBody)


def search_plan(**search) -> object:
    """The issue's shape: a dnsperf search with 10 s trials between 1,000 and 60,000 q/s at p99 ≤ 3 ms, repeated 3 times."""
    phase = {"kind": "search", "concurrency": 10, "low": 1000, "high": 60000, "duration_s": 10,
             "criteria": [{"metric": "latency_p99_ms", "limit": 3}], **search}  # fmt: skip
    return PLAN.validate_python({"name": "s", "tool": "dnsperf", "target_id": 1, "pause_s": 3, "repeat": 3,
                                 "phases": [{"kind": "baseline", "rate": 500, "duration_s": 10}, phase]})  # fmt: skip


def test_the_trials_of_noisy_searches_fall_in_the_range():
    """A server modelled otherwise than the estimate's (loss with noise, test_search_algorithm's) at 60 limits in and
    beyond the range: every search takes between the fewest and the most trials and seconds estimated."""
    estimate = span(CONFIG, Cost())
    runs = []
    for seed in range(60):
        _, trials = run(CONFIG, server(random.Random(seed).uniform(500, 12_000), seed))
        runs.append((len(trials), sum(t.duration_s for t, _ in trials)))
    print(f"\nestimated {estimate.trials_min}–{estimate.trials_max} trials, {estimate.seconds_min:g}–{estimate.seconds_max:g} s; "
          f"ran {min(runs)[0]}–{max(runs)[0]} trials, {min(r[1] for r in runs):g}–{max(r[1] for r in runs):g} s")
    assert all(estimate.trials_min <= n <= estimate.trials_max for n, _ in runs)
    assert all(estimate.seconds_min <= s <= estimate.seconds_max for _, s in runs)
    assert max(n for n, _ in runs) > estimate.trials_min + 5, "the range is not a single figure"


def test_the_preview_gives_a_range_and_the_budget_caps_it():
    plan = search_plan()
    (found,) = search_estimates(plan)
    assert (found.phase_index, found.runs, found.budget_bound) == (1, 3, False)
    assert found.trials_min < found.trials_max and found.seconds_min < found.seconds_max
    least, most = estimate_range(expand(plan), plan.pause_s, [found])
    baseline = 3 * (10 + START_OVERHEAD_S)
    pauses = 3 * (6 - 1)  # six points: the baseline and the search's first trial, three times
    assert least == pytest.approx(baseline + pauses + 3 * found.seconds_min)
    assert most == pytest.approx(baseline + pauses + 3 * found.seconds_max)
    assert most > 10 * 15.5, "not one trial's seconds"

    capped = search_estimates(search_plan(time_budget_s=120))[0]
    assert capped.budget_bound and capped.seconds_max <= 120 < found.seconds_max and capped.trials_max < found.trials_max
    assert capped.seconds_min == found.seconds_min


def test_the_budget_is_bounded_in_the_phase():
    with pytest.raises(ValidationError, match="time_budget_s must leave room for one trial"):
        search_plan(time_budget_s=5)
    with pytest.raises(ValidationError, match="time_budget_s"):
        search_plan(time_budget_s=10 ** 7)


def trial_point(seq: int, rate: float, duration: float, passed: bool, took: float, start: datetime):
    """A stored trial as the report reads it (a modelled server whose p99 limit is 20,000 q/s)."""
    return SimpleNamespace(seq=seq, phase_index=0, variant=None, repeat=0, offered_rate=rate, duration_s=duration,
                           status=PointStatus.COMPLETED, started_at=start, ended_at=start + timedelta(seconds=took),
                           metrics={"achieved_rate": min(rate, 20_000), "latency_p99_ms": 1.0 if passed else 9.0})  # fmt: skip


def test_a_search_stops_before_the_trial_that_would_pass_its_budget():
    phase = {"kind": "search", "low": 1000, "high": 60000, "duration_s": 8, "resolution_pct": 1,
             "criteria": [{"metric": "latency_p99_ms", "limit": 3}], "time_budget_s": 12}  # fmt: skip
    start = datetime(2026, 11, 26, tzinfo=timezone.utc)
    points = []
    for i in range(3):  # the search's own first trials, each taking its length and 0.7 s more
        nxt = replay(config_of(phase), stored_trials(points), whole_seconds=True).next
        points.append(trial_point(i, nxt.rate, run_duration(nxt.duration_s, True), nxt.rate <= 20_000,
                                  run_duration(nxt.duration_s, True) + 0.7, start + timedelta(seconds=10 * i)))  # fmt: skip
    (entry,) = search_report([phase], points, "q/s", whole_seconds=True, pause_s=2)
    spent = sum(p.duration_s + 0.7 for p in points) + 2 * 2
    step = run_duration(entry["bracket"]["duration_s"], True) + START_OVERHEAD_S + 2
    print(f"\n3 trials: {spent:g} s spent, the next would take {step:g} s: {entry.get('stopped')}")
    assert spent + step > 12 and not entry["done"] and entry["stopped"].startswith("stopped at its time budget of 12 s")
    assert entry["bracket"]["high"] is not None, "the bracket found so far is kept"
    assert budget_stop({**phase, "time_budget_s": spent + step}, points, Trial(**{k: entry["bracket"][k] for k in ("rate", "duration_s", "stage")}, criterion=0),
                       True, 2) is None, "a trial that just fits runs"  # fmt: skip
    assert "stopped" not in search_report([{**phase, "time_budget_s": None}], points, "q/s", True, 2)[0]


def test_progress_says_how_far_the_bracket_has_narrowed():
    bracket = {"range": [1000, 64000], "low": None, "high": 64000}
    assert narrowed_pct(bracket, 1) == 0
    assert narrowed_pct({**bracket, "low": 1000, "high": 64000}, 1) == pytest.approx(0)
    assert narrowed_pct({**bracket, "low": 10_000, "high": 10_100}, 1) == pytest.approx(100)
    half = narrowed_pct({**bracket, "low": 10_000, "high": 10_000 * (1 + (63 * 0.01) ** 0.5)}, 1)
    assert half == pytest.approx(50), "log scale: the geometric middle of the widths is half way"


def test_a_config_for_a_criterion_with_no_headroom():
    """A latency limit of 0 passes nothing but a 0 ms trial: the estimate still ends."""
    assert span(SearchConfig(100, 200, (Criterion("latency_p50_ms", 0),)), Cost()).trials_max >= 1
