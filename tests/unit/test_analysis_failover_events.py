"""A comparison's failover table (analysis/failover_events.py) on figures measured in the lab: three 6.5 s kbhttp
points at 1,000 req/s through lab-haproxy (check inter 500 fall 2 rise 2, retries 0), b2 killed at 1 s and 3.5 s into
each point and started 1 s later each time; each tuple is one event's (detection_s, recovery_s, failed_by_class,
error window duration_s) as the points' extra["failover"] held them (a run of
tests/integration/test_failover_compare_lab.py), then the same plan drained through HAProxy's socket (nothing failed)."""

from __future__ import annotations

from kneeboard.analysis.failover_events import across, event_table

KILLED = [[(0.573045, 0.458183, {"http_5xx": 187}, 0.57), (0.573602, 0.457367, {"http_5xx": 189}, 0.57)],
          [(0.922197, 0.809536, {"http_5xx": 304}, 0.92), (0.924817, 0.810889, {"http_5xx": 306}, 0.93)],
          [(0.78827, 0.674784, {"http_5xx": 261}, 0.79), (0.788514, 0.674221, {"http_5xx": 261}, 0.79)]]  # fmt: skip


def points(per_point: list[list[tuple]], action: str = "lab.backend_kill", rate: float = 1000.0) -> list[dict]:
    return [{"phase": "stability", "concurrency": 20, "offered_rate": rate, "repeat": r,
             "failover": [{"action": action, "value": "b2", "at_s": at, "detection_s": d, "recovery_s": rec, "failed_by_class": f,
                           "error_window": {"start": 0, "end": w, "duration_s": w} if w is not None else None}
                          for at, (d, rec, f, w) in zip((1.0, 3.5), events)]}
            for r, events in enumerate(per_point)]  # fmt: skip


def test_each_failure_event_gives_its_median_and_range_across_the_repetitions():
    table = event_table(points(KILLED))
    assert [(r["action"], r["value"], r["at_s"], r["events"]) for r in table] == [("lab.backend_kill", "b2", 1.0, 3), ("lab.backend_kill", "b2", 3.5, 3)]
    first = table[0]
    assert first["detection_s"] == {"median": 0.78827, "min": 0.573045, "max": 0.922197, "n": 3}
    assert first["recovery_s"] == {"median": 0.674784, "min": 0.458183, "max": 0.809536, "n": 3}
    assert first["failed"] == {"median": 261.0, "min": 187.0, "max": 304.0, "n": 3}
    assert first["error_window_s"] == {"median": 0.79, "min": 0.57, "max": 0.92, "n": 3}
    assert (first["phase"], first["concurrency"], first["offered_rate"]) == ("stability", 20, 1000.0)


def test_a_drain_has_no_detection_time_nor_error_window_and_no_failed_request():
    drained = [[(None, 0.0, {}, None), (None, 0.0, {}, None)]] * 3
    row = event_table(points(drained, "lab.haproxy_disable"))[0]
    assert row["detection_s"] is None and row["error_window_s"] is None, "nothing failed: no figure, not a zero"
    assert row["failed"] == {"median": 0.0, "min": 0.0, "max": 0.0, "n": 3} and row["recovery_s"]["n"] == 3


def test_the_same_event_at_another_load_is_a_row_of_its_own_and_a_missing_figure_is_counted_out():
    table = event_table([*points(KILLED[:2]), *points([[(None, None, {"http_5xx": 2000}, 2.0), KILLED[0][1]]], rate=2000.0)])
    assert [(r["offered_rate"], r["at_s"], r["events"]) for r in table] == [(1000.0, 1.0, 2), (1000.0, 3.5, 2), (2000.0, 1.0, 1), (2000.0, 3.5, 1)]
    assert table[0]["detection_s"]["median"] == (0.573045 + 0.922197) / 2  # an even count: the mean of the middle two
    assert table[2]["detection_s"] is None and table[2]["failed"]["median"] == 2000
    assert across([0.5, None, 0.7]) == {"median": 0.6, "min": 0.5, "max": 0.7, "n": 2} and across([None]) is None
    assert event_table([{"phase": "stability", "failover": None}]) == []
