"""Against the real stack (API, Celery worker, Postgres, Redis, unbound, dnsperf): a search's preview gives its range and
its time budget stops it with the bracket found so far, while its progress shows trials and bracket, not a total and
an ETA; a long dnsperf point through kblat has a latency drift; a target's notes are in the campaign's snapshot and in
the comparison's "what differs", and a snapshot from before notes were kept still reads."""

from __future__ import annotations

import time
import uuid

import pytest
from sqlalchemy import update

from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.tools.dnsperf.latency import kblat
from tests.integration.test_campaign_run import wait_status

pytestmark = pytest.mark.tools

BUDGET_S = 7


def target(stack, notes: str = "") -> int:
    body = {"name": f"unbound-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port, "notes": notes}
    response = stack.api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def search_plan(target_id: int, **search) -> dict:
    # the top of the range is more than dnsperf sends from this machine: the search must bisect (and its budget stop it)
    phase = {"kind": "search", "concurrency": 2, "low": 500, "high": 2_000_000, "duration_s": 2, "resolution_pct": 1,
             "criteria": [{"metric": "efficiency_pct", "limit": 95}], **search}  # fmt: skip
    return {"name": "budgeted search", "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "phases": [phase],
            "params": {"names": ["www.example.lab"], "timeout_s": 1}}  # fmt: skip


def test_the_preview_gives_a_range_and_refuses_a_budget_shorter_than_a_trial(stack):
    target_id = target(stack)
    preview = stack.api.post("/api/v1/plans/preview", json=search_plan(target_id)).json()
    (search,) = preview["searches"]
    print(f"\npreview: {search['trials_min']}–{search['trials_max']} trials, {preview['estimated_min_s']:g}–{preview['estimated_s']:g} s")
    assert search["trials_min"] < search["trials_max"] and preview["estimated_min_s"] < preview["estimated_s"]
    assert preview["point_count"] == 1, "the search still expands to its first trial"
    capped = stack.api.post("/api/v1/plans/preview", json=search_plan(target_id, time_budget_s=BUDGET_S)).json()
    assert capped["searches"][0]["budget_bound"] and capped["estimated_s"] <= BUDGET_S
    refused = stack.api.post("/api/v1/plans/preview", json=search_plan(target_id, time_budget_s=1))
    assert refused.status_code == 422 and "time_budget_s" in refused.text


def test_a_budget_stops_the_search_with_its_bracket_and_progress_shows_trials(stack):
    plan = stack.api.post("/api/v1/plans", json=search_plan(target(stack), time_budget_s=BUDGET_S)).json()
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan["id"]}).json()["id"]
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        campaign = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()
        if campaign["status"] == "running" and campaign["progress"]["search"]:
            seen.append(campaign["progress"])
        if campaign["status"] in {"completed", "failed", "crashed"}:
            break
        time.sleep(0.3)
    assert campaign["status"] == "completed", campaign.get("error")
    assert seen and all(p["eta_s"] is None for p in seen), "no ETA while the search makes its points"
    last = seen[-1]["search"]
    assert last["trials"] >= 1 and last["bracket"]["criterion"] and 0 <= last["narrowed_pct"] <= 100
    assert campaign["progress"]["search"] is None, "a finished campaign has no search left"

    (search,) = campaign["analysis"]["search"]
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    took = [(p["ended_at"], p["started_at"]) for p in points]
    print(f"\nstopped after {len(points)} trials ({search['trial_seconds']:g} trial-s): {search.get('stopped')} · bracket {search['bracket']}")
    assert not search["done"] and search["stopped"].startswith(f"stopped at its time budget of {BUDGET_S} s")
    assert search["bracket"]["low"] is not None or search["bracket"]["high"] is not None, "the bracket found so far"
    assert all(p["status"] == "completed" for p in points) and len(took) == search["trials"] >= 2


@pytest.mark.skipif(kblat() is None, reason="kblat is not built")
def test_a_long_dnsperf_point_has_a_latency_drift(stack):
    plan = {"name": "stability", "tool": "dnsperf", "target_id": target(stack), "pause_s": 0,
            "params": {"names": ["www.example.lab"], "timeout_s": 1, "latency_capture": True},
            "phases": [{"kind": "stability", "concurrency": 2, "rate": 2000, "duration_s": 8}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    stability = campaign["analysis"]["stability"]
    print(f"\nstability: {stability}")
    assert campaign["status"] == "completed" and stability["latency_drift_pct"] is not None


def test_target_notes_are_in_the_snapshot_and_in_what_differs(stack):
    ids = []
    for notes in ("minimal", "+ log"):
        plan = {"name": f"notes {notes}", "tool": "dnsperf", "target_id": target(stack, notes), "pause_s": 0,
                "params": {"names": ["www.example.lab"], "timeout_s": 1}, "phases": [{"kind": "baseline", "rate": 200, "duration_s": 1}]}  # fmt: skip
        plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
        ids.append(stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"])
    for campaign_id, notes in zip(ids, ("minimal", "+ log")):
        assert wait_status(stack.api, campaign_id, {"completed", "failed"}, timeout_s=60)["target"]["notes"] == notes
    compared = stack.api.get("/api/v1/compare", params=[("c", i) for i in ids])
    assert compared.status_code == 200, compared.text
    rows = {row["key"]: row["values"] for row in compared.json()["differences"]["target"]}
    assert rows["notes"] == {str(ids[0]): "minimal", str(ids[1]): "+ log"}

    with session_scope() as session:  # a campaign launched before notes were kept in the snapshot
        old = session.get(Campaign, ids[0]).target
        session.execute(update(Campaign).where(Campaign.id == ids[0]).values(target={k: v for k, v in old.items() if k != "notes"}))
    shown = stack.api.get(f"/api/v1/campaigns/{ids[0]}")
    assert shown.status_code == 200 and "notes" not in shown.json()["target"]
    rows = {row["key"]: row["values"] for row in stack.api.get("/api/v1/compare", params=[("c", i) for i in ids]).json()["differences"]["target"]}
    assert rows["notes"] == {str(ids[0]): None, str(ids[1]): "+ log"}
