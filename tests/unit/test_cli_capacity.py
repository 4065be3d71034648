"""The CLI says capacity as the analysis states it: a bound as a bound."""

from __future__ import annotations

import io

from kneeboard.analysis import capacity_at_slo
from kneeboard.client import output


def test_summary_prints_a_bound_as_a_bound():
    points = [{"phase": "saturation", "concurrency": 1, "offered_rate": r, "achieved_rate": r, "repeat": 0, "latency_avg_ms": 0.3,
               "status": "completed", "variant": None} for r in (1000.0, 2000.0, 4000.0)]  # fmt: skip
    capacity = capacity_at_slo(points, limit_ms=1.0, unit="q/s")
    campaign = {"id": 7, "name": "dns", "status": "completed", "error": None, "progress": {"total": 3},
                "summary": {"points_completed": 3, "points_failed": 0, "max_achieved_rate": 4000, "baseline_latency_ms": 0.3,
                            "loss_pct": 0}, "analysis": {"capacity": capacity, "conclusion": ""}}  # fmt: skip
    out = io.StringIO()
    output.summary(campaign, out)
    assert "capacity at mean latency ≤ 1 ms (SLO, sweep): ≥ 4,000 q/s — the SLO held at every load tested" in out.getvalue()


def test_run_prints_the_capacity_a_search_found():
    from kneeboard.search.algorithm import run
    from kneeboard.search.report import search_report
    from tests.unit.test_search_state import PHASE, CONFIG, point, server

    _, trials = run(CONFIG, server(3000))
    searches = search_report([PHASE], [point(i, t.rate, t.duration_s, r) for i, (t, r) in enumerate(trials)], "q/s")
    stopped = search_report([PHASE], [point(i, t.rate, t.duration_s, r) for i, (t, r) in enumerate(trials[:3])], "q/s")
    campaign = {"id": 8, "name": "cap", "status": "completed", "error": None, "progress": {"total": len(trials)},
                "summary": {"points_completed": len(trials), "points_failed": 0, "max_achieved_rate": 3000, "baseline_latency_ms": None,
                            "loss_pct": 0}, "analysis": {"search": searches + stopped, "conclusion": ""}}  # fmt: skip
    out = io.StringIO()
    output.summary(campaign, out)
    found = searches[0]["criteria"][0]
    assert f"search (phase 1): capacity at loss_pct ≤ 5: {found['statement']} ({len(trials)} trials, " in out.getvalue()
    assert "search (phase 1): stopped at loss_pct ≤ 5 within [" in out.getvalue() and "resume to continue" in out.getvalue()


def test_the_bar_says_a_running_search_by_its_trials_and_bracket():
    campaign = {"status": "running", "progress": {"done": 4, "total": 5, "eta_s": None, "search": {
        "phase_index": 0, "trials": 4, "unit": "q/s", "narrowed_pct": 62.0,
        "bracket": {"criterion": "loss_pct ≤ 5", "low": 2000.0, "high": 4000.0, "rate": 3000.0, "duration_s": 2, "stage": 1, "range": [1000, 10000]}}}}
    out = io.StringIO()
    output.Progress(out, tty=False).show(campaign, [], None)
    line = out.getvalue()
    assert "search: 4 trials, loss_pct ≤ 5 within [2000, 4000] q/s (62 % narrowed)" in line and "4/5 points" not in line
