"""Failover figures compared across repetitions (analysis/failover_verdict.py), on figures measured in the lab: two
campaigns of three 6.5 s kbhttp points at 1,000 req/s through lab-haproxy (check inter 500 fall 2 rise 2, retries 0), b2
taken out at 1 s and 3.5 s into each point and brought back 1 s later each time, by SIGKILL and a start (KILLED) or by
`disable server` and `enable server` on HAProxy's stats socket (DRAINED: nothing failed, so no detection time); each
tuple is one event's (detection_s, recovery_s, failed_by_class) as the points' extra["failover"] held them, point by
point, two events each (a run of tests/integration/test_failover_compare_lab.py). The captured run
(tests/fixtures/tool-output/kbhttp-0.3-haproxy-b2-stopped-r2000.*) is read through the analysis as well."""

from __future__ import annotations

import json

import pytest

from kneeboard.analysis import failover
from kneeboard.analysis.failover_verdict import COMPARED, event_figures, figure_test, figure_verdict
from kneeboard.analysis.verdicts import BETTER, FEW, SAME, WORSE
from kneeboard.tools.kbhttp import outcomes

KILLED = [(0.996661, 0.892062, {"http_5xx": 331}), (0.996682, 0.890279, {"http_5xx": 331}),
          (0.747679, 0.633218, {"http_5xx": 247}), (0.747799, 0.633885, {"http_5xx": 248}),
          (1.006666, 0.892516, {"http_5xx": 333}), (1.007239, 0.891473, {"http_5xx": 333})]  # fmt: skip
DRAINED = [(None, 0.0, {}), (None, 0.0, {}), (None, 0.0, {}), (None, 0.0, {}), (None, 0.000293, {}), (None, 0.000307, {})]


def figures(events: list[tuple]) -> dict[str, list[float]]:
    return event_figures({"detection_s": d, "recovery_s": r, "failed_by_class": f} for d, r, f in events)


def test_each_failure_event_gives_its_times_in_ms_and_its_failed_requests():
    killed, drained = figures(KILLED), figures(DRAINED)
    assert killed["failover_detection_ms"][:2] == pytest.approx([996.661, 996.682])
    assert killed["failover_failed"] == [331, 331, 247, 248, 333, 333] and drained["failover_failed"] == [0] * 6
    assert drained["failover_detection_ms"] == [], "nothing failed after a drain: no detection time, not a zero one"
    assert drained["failover_recovery_ms"] == pytest.approx([0.0, 0.0, 0.0, 0.0, 0.293, 0.307])
    assert [name for name, _, _ in COMPARED] == list(killed)


def test_the_captured_run_reads_as_its_documented_figures(fixtures_dir):
    stored, _ = outcomes.parse((fixtures_dir / "kbhttp-0.3-haproxy-b2-stopped-r2000.jsonl").read_text())
    meta = json.loads((fixtures_dir / "kbhttp-0.3-haproxy-b2-stopped-r2000.meta.json").read_text())
    event = failover.failover(failover.Outcomes.from_stored(stored), meta["stop_signal_at"], meta["listening_at"], "b2")
    found = event_figures([event])
    assert found["failover_detection_ms"] == pytest.approx([874.476]) and found["failover_recovery_ms"] == pytest.approx([719.721])
    assert found["failover_failed"] == [meta["haproxy_frontend_5xx_delta"]] == [582]


def test_a_drain_fails_fewer_requests_than_a_kill_and_recovers_sooner():
    killed, drained = figures(KILLED), figures(DRAINED)
    failed = figure_verdict(killed["failover_failed"], drained["failover_failed"])
    assert failed["verdict"] == BETTER and failed["basis"] == "Welch's t-test on 6 and 6 failure events"
    assert figure_test(killed["failover_failed"], drained["failover_failed"])["diff"] == pytest.approx(-303.833, abs=1e-3)
    assert figure_verdict(killed["failover_recovery_ms"], drained["failover_recovery_ms"])["verdict"] == BETTER
    assert figure_verdict(drained["failover_failed"], killed["failover_failed"])["verdict"] == WORSE, "lower is better"


def test_a_correction_for_the_comparisons_other_tests_can_leave_a_difference_undecided():
    killed, drained = figures(KILLED), figures(DRAINED)
    found = figure_verdict(killed["failover_failed"], drained["failover_failed"], p_adjusted=0.1)
    assert found["verdict"] == SAME and found["detail"].startswith("the interval is wider than ±2 %")


def test_the_same_setup_shows_no_difference():
    killed = figures(KILLED)  # each point's first kill against its second: 917 and 917 ms means, 3 events each
    first, second = killed["failover_detection_ms"][0::2], killed["failover_detection_ms"][1::2]
    found = figure_verdict(first, second)
    assert found["verdict"] == SAME and found["basis"] == "Welch's t-test on 3 and 3 failure events"


def test_fewer_than_three_events_a_side_is_not_enough_data():
    killed, drained = figures(KILLED), figures(DRAINED)
    found = figure_verdict(killed["failover_detection_ms"], drained["failover_detection_ms"])
    assert found["verdict"] == FEW and found["basis"] == "needs ≥ 3 failure events a side (has 6 and 0)"
    assert figure_test(killed["failover_failed"][:2], drained["failover_failed"]) is None
