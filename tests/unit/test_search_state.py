"""Where a stored search stands: stored trials replayed by (rate, duration), as the worker resumes a search and the
analysis reports it."""

from __future__ import annotations

from types import SimpleNamespace

from kneeboard.search.algorithm import run
from kneeboard.search.report import search_report
from kneeboard.search.state import Stored, config_of, replay, run_duration
from tests.unit.test_search_algorithm import server

PHASE = {"kind": "search", "low": 1000, "high": 10000, "resolution_pct": 1, "duration_s": 4, "concurrency": 1,
         "criteria": [{"metric": "loss_pct", "limit": 5}]}
CONFIG = config_of(PHASE)


def test_the_stored_trials_lead_to_the_trial_asked_next_whatever_their_order():
    found, trials = run(CONFIG, server(3000))
    stored = [Stored(t.rate, t.duration_s, r) for t, r in trials]
    assert replay(CONFIG, stored[:6]).next == trials[6][0], "resume continues from the bracket"
    shuffled = stored[:6][::-1]
    assert replay(CONFIG, shuffled).next == trials[6][0]
    gap = stored[:3] + stored[4:6]  # the 4th trial failed and is measured again: the later ones wait their turn
    state = replay(CONFIG, gap)
    assert state.next == trials[3][0] and state.used == 3
    done = replay(CONFIG, stored)
    assert done.next is None and done.used == len(trials) and (done.found[0].low, done.found[0].high) == (found[0].low, found[0].high)


def test_a_tool_of_whole_seconds_runs_and_matches_its_trials_rounded_up():
    assert run_duration(0.5, True) == 1 and run_duration(2.0, True) == 2 and run_duration(0.5, False) == 0.5
    _, trials = run(CONFIG, server(3000))
    stored = [Stored(t.rate, run_duration(t.duration_s, True), r) for t, r in trials]
    assert replay(CONFIG, stored, whole_seconds=True).next is None


def point(seq, rate, duration, metrics, status="completed"):
    return SimpleNamespace(seq=seq, phase_index=0, variant=None, repeat=0, offered_rate=rate, duration_s=duration,
                           metrics=metrics, status=status, extra={})


def test_the_report_says_each_capacity_with_its_interval_or_the_bracket_reached():
    _, trials = run(CONFIG, server(3000))
    points = [point(i, t.rate, t.duration_s, r) for i, (t, r) in enumerate(trials)]
    (entry,) = search_report([PHASE], points, "q/s")
    (found,) = entry["criteria"]
    assert entry["done"] and entry["trials"] == len(trials) and entry["trial_seconds"] == sum(t.duration_s for t, _ in trials)
    assert found["kind"] == "between" and found["statement"] == f"{found['value']:,.0f} q/s [{found['low']:,.0f} q/s–{found['high']:,.0f} q/s]"
    (partial,) = search_report([PHASE], points[:4] + [point(4, 1.0, 1.0, {}, status="cancelled")], "q/s")
    assert not partial["done"] and partial["bracket"]["rate"] == trials[4][0].rate and partial["bracket"]["high"] is not None
    held = search_report([PHASE], [point(0, 10000, 0.5, {"loss_pct": 0}), point(1, 10000, 4, {"loss_pct": 0})]
                         + [point(2 + i, 10000, 4, {"loss_pct": 0}) for i in range(2)], "q/s")
    assert held[0]["criteria"][0]["statement"] == "≥ 10,000 q/s — the criterion held at every load tested"


def searched(capacity: float, repeats: int) -> list[dict]:
    """A campaign's search report over `repeats` repetitions of the modelled loss server (its noise differs each time)."""
    points = []
    for rep in range(repeats):
        _, trials = run(CONFIG, server(capacity, seed=rep + 10))
        for t, r in trials:
            points.append(point(len(points), t.rate, t.duration_s, r))
            points[-1].repeat = rep
    return search_report([PHASE], points, "req/s")
