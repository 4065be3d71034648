"""Caps and policy on every path that starts load: launch, resume, rerun and schedules (run as their owner,
with the owner's current role); a policy change is audited with before and after."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import httpx
import pytest

from kneeboard import db
from kneeboard.config import get_settings
from kneeboard.schedules import service as schedules

POLICY = "/api/v1/policy/targets"


@pytest.fixture()
def capped(stack):
    """Operators capped at 500 q/s; the policy put back afterwards."""
    before = stack.api.get(POLICY).json()
    keep = {k: before[k] for k in ("networks", "hosts", "role_caps")}
    assert stack.api.put(POLICY, json={**keep, "role_caps": {"operator": {"max_rate": 500}}}).status_code == 200
    yield before
    assert stack.api.put(POLICY, json=keep).status_code == 200


def _operator(stack) -> tuple[httpx.Client, int]:
    username, password = f"op-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    made = stack.api.post("/api/v1/users", json={"username": username, "password": password, "role": "operator"})
    assert made.status_code == 201, made.text
    with httpx.Client(base_url=stack.api_url, timeout=30, headers={"Origin": stack.api_url}) as browser:
        assert browser.post("/api/v1/auth/login", json={"username": username, "password": password}).status_code == 200
        token = browser.post("/api/v1/tokens", json={"name": "caps"}).json()["token"]
    return httpx.Client(base_url=stack.api_url, timeout=30, headers={"Authorization": f"Bearer {token}"}), made.json()["id"]


def _plan(stack, target_id: int, rate: float, duration_s: float = 30) -> int:
    body = {"name": f"caps {rate}", "tool": "dnsperf", "target_id": target_id,
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": rate, "duration_s": duration_s}]}  # fmt: skip
    made = stack.api.post("/api/v1/plans", json=body)
    assert made.status_code == 201, made.text
    return made.json()["id"]


def _names_cap(response: httpx.Response) -> bool:
    return response.status_code == 422 and "max_rate" in str(response.json()["detail"])


def test_a_policy_change_is_audited_with_before_and_after(stack, capped):
    entries = stack.api.get("/api/v1/audit", params={"kind": "policy"}).json()["items"]
    latest = entries[0]
    assert latest["action"] == "update" and latest["details"]["after"]["role_caps"]["operator"]["max_rate"] == 500
    assert latest["details"]["before"]["role_caps"] == capped["role_caps"]


def test_an_operator_cannot_resume_or_rerun_above_the_caps(stack, capped, dns_target):
    started = stack.api.post("/api/v1/campaigns", json={"plan_id": _plan(stack, dns_target["id"], 3000)})
    assert started.status_code == 202, started.text
    campaign_id = started.json()["id"]
    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel").status_code in (200, 202)
    for _ in range(100):
        if stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] == "cancelled":
            break
        time.sleep(0.2)
    operator, _ = _operator(stack)
    with operator:
        resumed = operator.post(f"/api/v1/campaigns/{campaign_id}/resume")
        assert _names_cap(resumed), resumed.text
        assert stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] == "cancelled"  # nothing changed
        count = stack.api.get("/api/v1/campaigns", params={"limit": 1}).json()["total"]
        assert _names_cap(operator.post(f"/api/v1/campaigns/{campaign_id}/rerun"))
        assert stack.api.get("/api/v1/campaigns", params={"limit": 1}).json()["total"] == count
        assert _names_cap(operator.post("/api/v1/schedules", json={"plan_id": _plan(stack, dns_target["id"], 3000), "cron": "0 3 * * *"}))


def test_a_schedule_runs_as_its_owner_and_a_demoted_owner_launches_nothing(stack, capped, dns_target):
    for cached in (get_settings, db.get_engine, db.get_sessionmaker):  # this process talks to the stack's database
        cached.cache_clear()
    operator, user_id = _operator(stack)
    with operator:
        made = operator.post("/api/v1/schedules", json={"plan_id": _plan(stack, dns_target["id"], 100, 1), "cron": "0 3 * * *"})
        assert made.status_code == 201, made.text
    schedule_id = made.json()["id"]
    try:
        assert stack.api.patch(f"/api/v1/users/{user_id}", json={"role": "viewer"}).status_code == 200
        with db.session_scope() as session:
            row = schedules.get(schedule_id, session=session)
            assert schedules.tick(session=session, now=row.next_run_at + timedelta(seconds=1)) == []
        shown = stack.api.get(f"/api/v1/schedules/{schedule_id}").json()
        assert "viewer" in shown["last_gate"] and shown["last_campaign_id"] is None
        skipped = [e for e in stack.api.get("/api/v1/audit", params={"kind": "schedule"}).json()["items"]
                   if e["action"] == "skip" and e["obj_id"] == str(schedule_id)]  # fmt: skip
        assert skipped and "viewer" in skipped[0]["details"]["reason"]
        assert stack.api.patch(f"/api/v1/users/{user_id}", json={"role": "operator"}).status_code == 200
        with db.session_scope() as session:
            row = schedules.get(schedule_id, session=session)
            [campaign] = schedules.tick(session=session, now=row.next_run_at + timedelta(seconds=1))
            launched = campaign.id
        assert stack.api.get(f"/api/v1/campaigns/{launched}").status_code == 200
        entries = stack.api.get("/api/v1/audit", params={"kind": "campaign"}).json()["items"]
        assert any(e["action"] == "launch" and e["obj_id"] == str(launched) and e["details"]["role"] == "operator" for e in entries)
    finally:
        stack.api.delete(f"/api/v1/schedules/{schedule_id}")
