"""Notes on a campaign, and a plan's pinned baseline that its reports compare against."""

from __future__ import annotations

import json
import time
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


def test_new_inputs_are_refused_naming_the_field(stack, dns_target):
    plan = {"name": "v", "tool": "dnsperf", "target_id": dns_target["id"],
            "phases": [{"kind": "stability", "concurrency": 1, "rate": 100, "duration_s": 1, "warmup_s": -1}]}
    refused = stack.api.post("/api/v1/plans", json=plan)
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][-1] == "warmup_s"
    plan["phases"][0]["warmup_s"] = 0.5
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    nobody = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "no-such-agent"})
    assert nobody.status_code == 422 and nobody.json()["detail"][0]["loc"] == ["body", "agent"]
    bad_name = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "../etc"})
    assert bad_name.status_code == 422 and bad_name.json()["detail"][0]["loc"][-1] == "agent"
    campaign = stack.api.post("/api/v1/campaigns/import", files=[("file", ("seed.csv", (DATA / "seed000.csv").read_bytes()))]).json()
    slo = stack.api.post(f"/api/v1/campaigns/{campaign['id']}/analysis", json={"slo_ms": 0})
    assert slo.status_code == 422 and slo.json()["detail"][0]["loc"][-1] == "slo_ms"
    document = json.loads(stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.json").content)
    document["points"][0].update(status="failed", metrics={}, error="lost")
    partial = stack.api.post("/api/v1/campaigns/import", files=[("file", ("c.json", json.dumps(document).encode()))]).json()
    assert partial["status"] == "completed" and partial["partial"]
    resumed = stack.api.post(f"/api/v1/campaigns/{partial['id']}/resume")  # a failed point, but the campaign completed
    assert resumed.status_code == 409 and "crashed or cancelled" in resumed.json()["detail"]
    assert stack.api.post(f"/api/v1/campaigns/{campaign['id']}/rerun").status_code == 409  # imported: nothing to run again
