"""Repeat until decided on the real execution path (dnsperf against the suite's unbound, in-process): the worker adds
a pass at a time, the variants in the other order on odd passes, until the sequential test decides or max_passes is
reached; the campaign's analysis keeps each verdict's history and why it stopped."""

from __future__ import annotations

from kneeboard.campaigns import service
from kneeboard.db import session_scope
from kneeboard.runs.execution import run_campaign

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
