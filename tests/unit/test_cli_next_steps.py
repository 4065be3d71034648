"""The CLI says what would decide an undecided comparison (issue 47, item 5): `campaigns compare` and `run --baseline`."""

from __future__ import annotations

import io

from kneeboard.client import output, run
from kneeboard.gate import BaselineOutcome

STEP = {"change_pct": 10, "repetitions": 12, "now": 3, "detectable_pct": 24.3,
        "text": "to detect a 10 % change: 12 repetitions a side at the same point length (now 3; α = 0.05, power 0.8); these could detect 24.3 %"}
COMPARISON = {"headline": [
    {"label": "Ceiling", "verdicts": {"2": "no detectable difference"}, "next_steps": {"1": None, "2": STEP}},
    {"label": "Loss", "verdicts": {"2": "worse"}, "next_steps": {"1": None, "2": None}},
    {"label": "Knee", "verdicts": {"2": None}},  # a row without verdicts (an older server): nothing to say
]}  # fmt: skip


def test_each_undecided_row_says_its_next_step_once():
    assert output.next_steps(COMPARISON, "2") == [f"Ceiling: {STEP['text']}"]
    assert output.next_steps(COMPARISON, "3") == []


def test_run_against_a_baseline_prints_the_next_steps_under_its_outcome():
    verdict = run.Verdict({"id": 2, "status": "completed"}, baseline_id=1,
                          baseline=BaselineOutcome("inconclusive", "Ceiling: no detectable difference"),
                          next_steps=output.next_steps(COMPARISON, "2"))  # fmt: skip
    out = io.StringIO()
    run._print(verdict, strict=False, out=out)
    assert out.getvalue().splitlines() == ["  baseline 1: inconclusive (warning): Ceiling: no detectable difference",
                                           f"    undecided: Ceiling: {STEP['text']}"]  # fmt: skip
