"""Anything unexpected in a run ends its campaign `failed`: a fault injected at each stage (KB_INJECT_FAULTS,
runs/faults.py) in a real worker, with the real tool. No tool left, no lease held, the error on the report."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.stack import start_worker
from tests.support import outages
from tests.support.services import wait_for_agent

from tests.integration.test_crash_safety import _launch, _plan, _wait


@pytest.mark.parametrize("stage", ["start", "point", "store", "settle"])
def test_an_injected_fault_ends_the_campaign_failed(stack, dns_target, stage):
    name = f"fault-{stage}"
    worker = start_worker({**stack.env, "AGENT_NAME": name, "KB_INJECT_FAULTS": stage}, stack.tmp / f"agent-{name}")
    stack.started.append(worker)
    wait_for_agent(stack.api, name)
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=2, duration_s=2), agent=name)
    launched = time.monotonic()
    tools_seen: set[int] = set()
    deadline = launched + 30
    campaign = None
    while time.monotonic() < deadline:
        tools_seen |= {pid for pid in outages.descendants(worker.pid) if outages.command(pid) == "dnsperf"}
        campaign = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()
        if campaign["status"] not in {"queued", "starting", "running", "cancelling"}:
            break
        time.sleep(0.1)
    print(f"\nfault at {stage}: campaign {campaign['status']} after {time.monotonic() - launched:.1f} s: {campaign['error']}")
    assert campaign["status"] == "failed", campaign
    assert f"injected fault at stage '{stage}'" in campaign["error"]
    assert not any(outages.alive(pid) for pid in tools_seen), "a tool outlived its failed run"
    assert not [pid for pid in outages.descendants(worker.pid) if outages.command(pid) in {"dnsperf", "kblat", "mpstat", "ping"}]
    with session_scope() as session:
        lease = session.execute(select(Campaign.lease_expires_at).where(Campaign.id == campaign_id)).scalar_one()
    assert lease is None, "the failed run still holds its lease"
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert all(p["status"] in {"failed", "cancelled", "completed"} for p in points), points
    if stage == "point":
        assert "injected fault" in (points[0]["error"] or ""), points[0]
    if stage == "store":  # the store raised, but the measurement was spooled: the next heartbeat stores it
        deadline = time.monotonic() + 15
        while points[0]["status"] != "completed" and time.monotonic() < deadline:
            time.sleep(0.5)
            points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        assert points[0]["status"] == "completed" and points[0]["metrics"]["achieved_rate"] > 0, points[0]
        assert any("stored from the agent's spool" in w for w in points[0]["warnings"])
        assert stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] == "failed"
    # the agent is not stuck: a second campaign on it runs (and fails the same way), it is not left queued
    again = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=1), agent=name)
    assert _wait(stack, again, {"failed", "completed"}, timeout_s=30)["status"] == "failed"
