"""One load at a time per agent name: two worker processes under one AGENT_NAME, two queued campaigns. No two
points overlap, judged from the points' start and end and from the tool processes themselves; the campaign that
waits says so while it waits."""

from __future__ import annotations

import time
from datetime import datetime

from tests.integration.test_crash_safety import _launch, _plan, _wait
from tests.support import outages
from tests.support.services import wait_for_agent


def _interval(point: dict) -> tuple[datetime, datetime]:
    return datetime.fromisoformat(point["started_at"]), datetime.fromisoformat(point["ended_at"])


def test_two_workers_of_one_agent_never_load_at_once(stack, dns_target):
    workers = [outages.agent(stack, "twin"), outages.agent(stack, "twin")]
    wait_for_agent(stack.api, "twin")
    time.sleep(2)  # both processes consume the queue
    plan_id = _plan(stack, dns_target["id"], points=3, duration_s=2)
    campaigns = [_launch(stack, plan_id, agent="twin"), _launch(stack, plan_id, agent="twin")]
    most, waiting_seen = 0, set()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        tools = [pid for w in workers for pid in outages.descendants(w.pid) if outages.command(pid) == "dnsperf"]
        most = max(most, len(tools))
        states = [stack.api.get(f"/api/v1/campaigns/{c}").json() for c in campaigns]
        waiting_seen |= {s["id"] for s in states if s["status"] == "queued" and s["progress"]["queue_position"] == 1}
        if all(s["status"] in {"completed", "failed", "crashed", "cancelled"} for s in states):
            break
        time.sleep(0.1)
    for campaign_id in campaigns:
        assert _wait(stack, campaign_id, {"completed"}, timeout_s=5)["status"] == "completed"
    points = [p for c in campaigns for p in stack.api.get(f"/api/v1/campaigns/{c}/points").json()]
    spans = sorted(_interval(p) for p in points)
    overlaps = [(a, b) for a, b in zip(spans, spans[1:]) if b[0] < a[1]]
    print(f"\ntwo workers of one agent: {len(points)} points, at most {most} dnsperf at once, overlaps {overlaps}")
    assert len(points) == 6 and not overlaps and most == 1
    assert waiting_seen, "the second campaign was never shown waiting for its agent"
