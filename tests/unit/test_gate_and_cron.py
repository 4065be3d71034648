"""Pure parts of gating and scheduling: threshold syntax, threshold checks, verdict reading, missed fire times."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kneeboard.gate import baseline_outcome, check_thresholds, parse_threshold
from kneeboard.schedules.cron import check_cron, next_fire

POINT = {"seq": 2, "phase": "baseline", "concurrency": 1, "offered_rate": 100.0, "repeat": 1, "status": "completed",
         "metrics": {"latency_avg_ms": 0.2, "loss_pct": 0.0}}  # fmt: skip


@pytest.mark.parametrize("text", ["latency_avg_ms<5", "loss_pct <= 1", "achieved_rate>1e3", " x>=-2.5 "])
def test_threshold_syntax(text):
    assert parse_threshold(text).op in {"<", "<=", ">", ">="}


@pytest.mark.parametrize("text", ["latency<", "<5", "a=5", "a<5ms", "a<nan", ""])
def test_bad_thresholds_are_refused(text):
    with pytest.raises(ValueError):
        parse_threshold(text)


def test_unknown_metric_is_named():
    with pytest.raises(ValueError, match="unknown metric 'p99'"):
        parse_threshold("p99<5", {"latency_avg_ms"})


def test_thresholds_name_the_failing_point():
    results = check_thresholds([parse_threshold("latency_avg_ms<0.1"), parse_threshold("loss_pct<=0")], [POINT, {**POINT, "status": "failed"}])
    assert not results[0].passed and "point 2 (baseline c=1 rate=100" in results[0].failures[0] and results[1].passed
    assert check_thresholds([parse_threshold("loss_pct<1")], [])[0].failures == ["no completed point"]


def _comparison(verdict, basis):
    return {"headline": [{"metric": "baseline_latency_ms", "label": "Baseline latency", "verdicts": {"1": None, "2": verdict},
                          "basis": {"1": None, "2": basis}}]}  # fmt: skip


def test_verdicts():
    assert baseline_outcome(_comparison("worse", "95 % bootstrap confidence intervals"), "2").outcome == "regression"
    assert baseline_outcome(_comparison("worse", "no repeats: compared with a ±5 % tolerance"), "2").outcome == "inconclusive"
    assert baseline_outcome(_comparison("indistinguishable", "95 % bootstrap confidence intervals"), "2").outcome == "pass"
    assert baseline_outcome(_comparison("mixed", "Welch's t-test"), "2").outcome == "regression"
    assert baseline_outcome(_comparison("no detectable difference", "Welch's t-test"), "2").outcome == "pass"
    assert baseline_outcome(_comparison("better", "Welch's t-test"), "2").outcome == "pass"
    assert baseline_outcome(_comparison("not enough data", "Welch's t-test"), "2").outcome == "inconclusive"
    assert baseline_outcome(_comparison(None, None), "2").outcome == "inconclusive"


def test_cron_fields_and_time_zone():
    assert check_cron("*/5  *  * * *") == "*/5 * * * *"
    with pytest.raises(ValueError):
        check_cron("* * * *")
    after = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    assert next_fire("0 2 * * *", "Europe/Paris", after) == datetime(2026, 3, 2, 1, 0, tzinfo=timezone.utc)


def test_missed_runs_are_counted_not_run():
    from kneeboard.schedules.models import Schedule
    from kneeboard.schedules.service import _due

    now = datetime(2026, 3, 1, 12, 0, 30, tzinfo=timezone.utc)
    down = Schedule(cron="* * * * *", timezone="UTC", enabled=True, missed=0, next_run_at=now - timedelta(minutes=10, seconds=30))
    assert _due(down, now, timedelta(seconds=60)) is True  # 12:00 is recent: it runs, the ten before it are missed
    assert down.missed == 10 and down.next_run_at == now + timedelta(seconds=30)
    stale = Schedule(cron="0 * * * *", timezone="UTC", enabled=True, missed=0, next_run_at=now - timedelta(hours=3, seconds=30))
    assert _due(stale, now, timedelta(seconds=20)) is False and stale.missed == 4
