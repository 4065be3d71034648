"""Failover figures from kbhttp's outcomes per 10 ms, on real captures: kbhttp at 2,000 req/s through lab-haproxy
(roundrobin, checks inter 500 ms fall 2 rise 2, retries 0) while backend b2's nginx was stopped by PID 3 s into the
run and started again 4 s later (tests/fixtures/tool-output/kbhttp-0.3-haproxy-*: .cmd, .jsonl the outcome file,
.ndjson kbhttp's stdout, .meta.json the times of the stop and of b2 listening again, and HAProxy's own frontend 5xx
count over the run from its stats socket)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kneeboard.analysis import failover
from kneeboard.tools.kbhttp import outcomes

ROUNDROBIN = "kbhttp-0.3-haproxy-b2-stopped-r2000"
REDISPATCH = "kbhttp-0.3-haproxy-redispatch-b2-stopped-r2000"  # `option redispatch`, `retries 2`; b2 not started again
INTER_S, FALL, RISE = 0.5, 2, 2


def capture(fixtures_dir, name: str) -> tuple[failover.Outcomes, dict]:
    stored, warnings = outcomes.parse((fixtures_dir / f"{name}.jsonl").read_text())
    assert warnings == []
    return failover.Outcomes.from_stored(stored), json.loads((fixtures_dir / f"{name}.meta.json").read_text())


def test_a_stopped_backend_gives_an_error_window_within_the_checks_detection(fixtures_dir):
    o, meta = capture(fixtures_dir, ROUNDROBIN)
    stop = meta["stop_signal_at"]
    result = failover.failover(o, stop, meta["listening_at"], "b2")
    window = result["error_window"]
    # fall 2 at inter 500 ms: out after two failed checks, 0.5–1.0 s after the stop, plus one interval of slack
    assert (FALL - 1) * INTER_S <= result["detection_s"] <= FALL * INTER_S + INTER_S
    assert result["detection_s"] == pytest.approx(0.874476) and window["duration_s"] == pytest.approx(0.88)
    assert window["start"] <= stop < window["start"] + o.width_s, "the first failure is in the bucket of the stop"
    assert result["failed_by_class"] == {"http_5xx": 582} == {"http_5xx": window["failed"]}
    assert window["failed"] == meta["haproxy_frontend_5xx_delta"], "kbhttp's failures are HAProxy's own 5xx"
    assert result["longest_gap"]["duration_s"] == 0.0, "b1 and b3 answered in every bucket: never a gap"


def test_the_restored_backend_answers_again_within_the_rise_setting(fixtures_dir):
    o, meta = capture(fixtures_dir, ROUNDROBIN)
    recovery = failover.recovery_time(o, meta["listening_at"], "b2")
    assert (RISE - 1) * INTER_S <= recovery <= RISE * INTER_S + INTER_S and recovery == pytest.approx(0.719721)
    assert failover.recovery_time(o, meta["listening_at"], "b9") is None


def test_without_a_counted_header_recovery_is_the_first_answer_after_listening(fixtures_dir):
    o, meta = capture(fixtures_dir, ROUNDROBIN)
    alone = dataclasses.replace(o, header=None, values={}, value_order=[])  # one server: any answer is its answer
    first = next(i for i in range(alone.index(meta["listening_at"]), alone.n) if alone.series(failover.OK)[i])
    assert failover.recovery_time(alone, meta["listening_at"], "web") == pytest.approx(max(0.0, alone.at(first) - meta["listening_at"]), abs=1e-6)
    assert failover.recovery_time(alone, alone.at(alone.n) + 1, "web") is None  # nothing answered after it


def test_traffic_spreads_over_three_then_two_then_three_backends(fixtures_dir):
    o, meta = capture(fixtures_dir, ROUNDROBIN)
    spread = failover.failover(o, meta["stop_signal_at"], meta["listening_at"], "b2")["spread"]
    for phase in ("before", "after"):
        assert {v: round(s["share"], 2) for v, s in spread[phase].items()} == {"b1": 0.33, "b2": 0.33, "b3": 0.33}, phase
    during = spread["during"]
    assert during["b2"]["requests"] == 4, "only the bucket of the stop still has b2's answers (sent before it)"
    assert during["b1"]["share"] == pytest.approx(0.5, abs=0.01) and during["b3"]["share"] == pytest.approx(0.5, abs=0.01)


def test_redispatch_hides_the_stopped_backend_only_the_spread_shows_it(fixtures_dir):
    o, meta = capture(fixtures_dir, REDISPATCH)
    result = failover.failover(o, meta["stop_signal_at"])
    assert meta["haproxy_frontend_5xx_delta"] == 0 and sum(o.failures()) == 0
    assert result["error_window"] is None and result["detection_s"] is None and result["failed_by_class"] == {}
    assert {v: round(s["share"], 2) for v, s in result["spread"]["before"].items()} == {"b1": 0.33, "b2": 0.33, "b3": 0.33}
    after = result["spread"]["after"]  # from the stop on: the retries put b2's share on b1 and b3 at once
    assert after["b2"]["requests"] == 4 and after["b1"]["share"] == pytest.approx(0.5, abs=0.01)


def test_roundrobin_per_request_keeps_no_connection_on_one_backend(fixtures_dir):
    o, _ = capture(fixtures_dir, ROUNDROBIN)
    found = failover.persistence(o)
    assert found["connections"] == 50 and found["all_on_one"] == 0 and found["mean_share"] < 0.5


def test_whole_point_totals_match_kbhttps_point_line(fixtures_dir):
    o, _ = capture(fixtures_dir, ROUNDROBIN)
    point = json.loads((fixtures_dir / f"{ROUNDROBIN}.ndjson").read_text().splitlines()[-1])
    assert sum(o.series("ok")) == point["completed"] - point["errors"]["status"]
    assert failover.failed_by_class(o) == {"http_5xx": point["errors"]["status"]}
    assert sum(s["requests"] for s in failover.spread(o).values()) == sum(o.series("ok"))


def synthetic(ok: list[int], failed: list[int], b1: list[int] | None = None, connections=None) -> failover.Outcomes:
    classes = {"ok": ok, "reset": failed}
    return failover.Outcomes(start=100.0, width_s=0.01, classes=classes, values={"b1": b1 or ok}, value_order=["b1"],
                             connections=connections or [])


def test_edges_no_failure_a_real_gap_and_sparse_series():
    quiet = synthetic([2, 2, 2, 2], [0, 0, 0, 0])
    assert failover.error_window(quiet) is None and failover.detection_time(quiet, 100.0) is None
    assert failover.failover(quiet, 100.015)["spread"]["during"] == {"b1": {"requests": 0, "share": 0.0}}
    gap = synthetic([2, 0, 0, 0, 2, 0, 2], [0, 2, 2, 1, 0, 0, 0])
    assert failover.longest_gap(gap) == {"start": pytest.approx(100.01), "end": pytest.approx(100.04), "duration_s": pytest.approx(0.03)}
    assert failover.error_window(gap, since=100.02) == {"start": pytest.approx(100.02), "end": pytest.approx(100.04),
                                                          "duration_s": pytest.approx(0.02), "failed": 3}
    assert failover.failed_by_class(gap, until=100.02) == {"reset": 2}
    assert failover.decode({"n": 4, "at": [[1, 5], [3, 2]]}) == [0, 5, 0, 2] and failover.decode([1, 2]) == [1, 2]


def test_persistence_counts_connections_that_stayed_on_one_backend():
    o = synthetic([1], [0], connections=[[10, 0, 0], [0, 7, 0], [9, 1, 0], [0, 0, 0]])
    assert failover.persistence(o) == {"connections": 3, "mean_share": pytest.approx(26 / 27), "min_share": 0.9, "all_on_one": 2}
    assert failover.persistence(synthetic([1], [0])) is None
