"""Repeat until decided on the real execution path (dnsperf against the suite's unbound, in-process): the worker adds
a pass at a time, the variants in the other order on odd passes, until the sequential test decides or max_passes is
reached; the campaign's analysis keeps each verdict's history and why it stopped."""

from __future__ import annotations

import time

from kneeboard.campaigns import service
from kneeboard.db import session_scope
from kneeboard.runs.execution import run_campaign
from tests.integration.test_campaign_run import wait_status
from tests.support.campaigns import launch

MAX_PASSES = 4


def test_passes_are_added_until_the_most_and_the_record_says_why_it_stopped(stack, dns_target):
    plan = {"name": "until decided", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 0, "repeat": 2,
            "variants": [{"label": "a"}, {"label": "b"}],
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 1}],
            "until_decided": {"metrics": ["latency_avg_ms", "achieved_rate"], "max_passes": MAX_PASSES, "margin_pct": 0.5}}  # fmt: skip
    created = stack.api.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    with session_scope() as session:  # launched without a dispatcher: this test is the agent
        campaign_id = service.launch(created.json()["id"], name=None, tags=[], session=session).id
    assert run_campaign(campaign_id, "in-process") == "completed"

    points = sorted(stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json(), key=lambda p: p["seq"])
    record = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["analysis"]["until_decided"]  # what the report reads
    passes = record["passes"]
    print(f"\nuntil decided: {passes} passes, stopped: {record['stopped']}; "
          f"{ {m: v['history'] for m, v in record['variants']['b']['metrics'].items()} }")
    assert 2 <= passes <= MAX_PASSES and len(points) == 2 * passes
    assert all(p["status"] == "completed" for p in points)
    assert [p["variant"] for p in points] == ["a", "b", "a", "b", "a", "b", "b", "a"][: 2 * passes]  # passes 0, 1 as expanded; added odd passes reversed
    assert record["stopped"] in ("decided", "max passes reached")
    assert record["stopped"] == "decided" or passes == MAX_PASSES
    assert all(len(m["history"]) == passes for m in record["variants"]["b"]["metrics"].values())


def test_a_cancelled_campaign_resumed_keeps_its_passes_and_the_verdict_runs_on(stack, dns_target):
    """The test's state is the campaign's points: passes completed before a cancel are not run again after the resume,
    and the verdict's history goes on from theirs (no verdict can come before pass 5 at α = 5 %, so none stops it)."""
    plan = {"name": "until decided, resumed", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 0, "repeat": 2,
            "variants": [{"label": "a"}, {"label": "b"}],
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 1}],
            "until_decided": {"metrics": ["latency_avg_ms"], "max_passes": 6, "margin_pct": 0.1}}  # fmt: skip
    campaign_id = launch(stack, plan)
    points_of = lambda: stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()  # noqa: E731
    deadline = time.monotonic() + 60
    while sum(p["status"] == "completed" for p in points_of()) < 6:  # three passes
        assert time.monotonic() < deadline, points_of()
        time.sleep(0.1)
    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel").status_code == 200
    wait_status(stack.api, campaign_id, {"cancelled"}, timeout_s=60)
    before = {p["id"]: p for p in points_of() if p["status"] == "completed"}
    stopped = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["analysis"]["until_decided"]
    assert stopped["stopped"].startswith("cancelled") and stopped["passes"] >= 3, stopped

    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/resume").status_code == 202
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, timeout_s=120)
    points = points_of()
    record = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["analysis"]["until_decided"]
    history = record["variants"]["b"]["metrics"]["latency_avg_ms"]["history"]
    print(f"\nfigures: cancelled after {stopped['passes']} passes ({len(before)} points completed), resumed to "
          f"{record['passes']} passes, stopped: {record['stopped']}; history {history}")
    assert campaign["status"] == "completed", [p["error"] for p in points]
    again = {p["id"]: p for p in points if p["id"] in before}
    assert all(again[i]["attempt"] == before[i]["attempt"] and again[i]["ended_at"] == before[i]["ended_at"] for i in before)
    assert sorted((p["repeat"], p["variant"]) for p in points) == sorted({(p["repeat"], p["variant"]) for p in points})  # no pass run twice
    assert record["passes"] > stopped["passes"] and record["stopped"] in ("decided", "max passes reached")
    assert len(points) == 2 * record["passes"]  # a pass added after the resume ran (attempt 2): none left pending
    assert history[: stopped["passes"]] == stopped["variants"]["b"]["metrics"]["latency_avg_ms"]["history"]
