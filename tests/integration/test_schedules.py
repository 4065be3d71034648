"""Schedules: beat launches an every-minute schedule within 70 s, never a second copy while the first runs."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest


@pytest.fixture()
def long_plan(stack, dns_target) -> dict:
    """A plan whose one point outlasts a minute boundary, so the next fire time comes while it runs."""
    body = {"name": "scheduled sweep", "tool": "dnsperf", "target_id": dns_target["id"],
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 1},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 50, "duration_s": 75}], "pause_s": 0}  # fmt: skip
    response = stack.api.post("/api/v1/plans", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _runs(stack, schedule_id: int) -> list[dict]:
    return stack.api.get("/api/v1/campaigns", params={"tag": f"schedule:{schedule_id}"}).json()["items"]


def test_every_minute_schedule_starts_within_70_s_and_never_twice(stack, long_plan):
    from kneeboard import db
    from kneeboard.config import get_settings
    from kneeboard.schedules import service

    for cached in (get_settings, db.get_engine, db.get_sessionmaker):  # this process talks to the stack's database
        cached.cache_clear()

    created = stack.api.post("/api/v1/schedules", json={"plan_id": long_plan["id"], "cron": "* * * * *", "timezone": "UTC"})
    assert created.status_code == 201, created.text
    schedule = created.json()
    assert schedule["enabled"] and schedule["next_run_at"] and schedule["missed"] == 0
    try:
        deadline = time.monotonic() + 70
        while time.monotonic() < deadline and not _runs(stack, schedule["id"]):
            time.sleep(1)
        runs = _runs(stack, schedule["id"])
        assert len(runs) == 1, "no campaign within 70 s of enabling the schedule"
        assert runs[0]["status"] in {"queued", "starting", "running"}
        with db.session_scope() as session:  # the next fire time comes while the first run is still going
            row = service.get(schedule["id"], session=session)
            assert service.tick(session=session, now=row.next_run_at + timedelta(seconds=1)) == []
        assert len(_runs(stack, schedule["id"])) == 1
        shown = stack.api.get(f"/api/v1/schedules/{schedule['id']}").json()
        assert shown["skipped"] >= 1 and shown["last_campaign_id"] == runs[0]["id"] and shown["last_status"] is not None
    finally:
        stack.api.delete(f"/api/v1/schedules/{schedule['id']}")
        for run in _runs(stack, schedule["id"]):
            stack.api.post(f"/api/v1/campaigns/{run['id']}/cancel")


def test_schedule_validation_and_disable(stack, long_plan):
    bad = stack.api.post("/api/v1/schedules", json={"plan_id": long_plan["id"], "cron": "* * * *"})
    assert bad.status_code == 422 and "five fields" in bad.text
    bad_zone = stack.api.post("/api/v1/schedules", json={"plan_id": long_plan["id"], "cron": "0 2 * * *", "timezone": "Mars/Olympus"})
    assert bad_zone.status_code == 422
    bad_threshold = stack.api.post("/api/v1/schedules", json={"plan_id": long_plan["id"], "cron": "0 2 * * *", "thresholds": ["nope<1"]})
    assert bad_threshold.status_code == 422 and "unknown metric" in bad_threshold.text
    made = stack.api.post("/api/v1/schedules", json={"plan_id": long_plan["id"], "cron": "0 2 * * *", "timezone": "Europe/Paris",
                                                     "thresholds": ["latency_avg_ms<5"], "baseline": "latest-pinned"})  # fmt: skip
    assert made.status_code == 201, made.text
    schedule_id = made.json()["id"]
    try:
        off = stack.api.patch(f"/api/v1/schedules/{schedule_id}", json={"enabled": False}).json()
        assert off["enabled"] is False and off["next_run_at"] is None
        assert any(s["id"] == schedule_id for s in stack.api.get("/api/v1/schedules").json())
    finally:
        assert stack.api.delete(f"/api/v1/schedules/{schedule_id}").status_code == 204
