"""Notes on a campaign, and a plan's pinned baseline that its reports compare against."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"


def test_notes_are_kept_and_audited(stack):
    campaign = stack.api.post("/api/v1/campaigns/import", files=[("file", ("seed.csv", (DATA / "seed000.csv").read_bytes()))]).json()
    changed = stack.api.patch(f"/api/v1/campaigns/{campaign['id']}", json={"notes": "NIC firmware 2.1; GRO on"})
    assert changed.status_code == 200 and changed.json()["notes"] == "NIC firmware 2.1; GRO on"
    assert stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["notes"] == "NIC firmware 2.1; GRO on"
    assert stack.api.patch(f"/api/v1/campaigns/{campaign['id']}", json={}).status_code == 422
    assert stack.api.patch(f"/api/v1/campaigns/{campaign['id']}", json={"notes": "x" * 10_001}).status_code == 422
    audit = stack.api.get("/api/v1/audit", params={"kind": "campaign"}).json()["items"]
    assert any(e["action"] == "notes" and e["obj_id"] == str(campaign["id"]) for e in audit)


def test_a_pinned_baseline_is_offered_on_every_report_of_the_plan(stack, dns_target):
    plan = {"name": "pinned", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 0,
            "phases": [{"kind": "stability", "concurrency": 1, "rate": 200, "duration_s": 1}]}
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    first = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    refused = stack.api.put(f"/api/v1/plans/{plan_id}/baseline", json={"campaign_id": first})
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][-1] == "campaign_id"  # not completed yet
    import time

    deadline = time.monotonic() + 60
    while stack.api.get(f"/api/v1/campaigns/{first}").json()["status"] != "completed" and time.monotonic() < deadline:
        time.sleep(0.2)
    pinned = stack.api.put(f"/api/v1/plans/{plan_id}/baseline", json={"campaign_id": first})
    assert pinned.status_code == 200 and pinned.json()["baseline_campaign_id"] == first
    second = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    assert stack.api.get(f"/api/v1/campaigns/{second}").json()["baseline_campaign_id"] == first
    assert stack.api.get(f"/api/v1/campaigns/{first}").json()["baseline_campaign_id"] is None  # never itself
    exported = stack.api.get(f"/api/v1/plans/{plan_id}.yaml").text
    assert "baseline_campaign_id" not in exported
    assert stack.api.put(f"/api/v1/plans/{plan_id}/baseline", json={"campaign_id": None}).json()["baseline_campaign_id"] is None
