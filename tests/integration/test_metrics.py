"""GET /metrics: Prometheus text, every name prefixed kneeboard_, a token required, figures that move during a campaign."""

from __future__ import annotations

import time

import httpx
from prometheus_client.parser import text_string_to_metric_families


def scrape(stack) -> dict[str, list]:
    """{family name: samples} of one scrape."""
    response = stack.api.get("/metrics")
    assert response.status_code == 200, response.text
    return {f.name: f.samples for f in text_string_to_metric_families(response.text)}


def value(families: dict, name: str, **labels) -> float:
    """The sum of a family's samples called `name` whose labels include `labels`."""
    return sum(s.value for fam in families.values() for s in fam if s.name == name and labels.items() <= s.labels.items())


def test_metrics_need_a_token(stack):
    assert httpx.get(f"{stack.api_url}/metrics").status_code == 401
    assert httpx.get(f"{stack.api_url}/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401


def test_metrics_parse_and_move_while_a_campaign_runs(stack, dns_target):
    before = scrape(stack)
    assert before and all(name.startswith("kneeboard_") for name in before)
    for wanted in ("kneeboard_campaigns", "kneeboard_points", "kneeboard_point_duration_seconds", "kneeboard_queue_depth_total",
                   "kneeboard_agents_alive", "kneeboard_agent_heartbeat_age_seconds", "kneeboard_api_request_duration_seconds",
                   "kneeboard_live_point_metric"):  # fmt: skip
        assert wanted in before, wanted
    assert value(before, "kneeboard_agents_alive") >= 1
    body = {"name": "metrics", "tool": "dnsperf", "target_id": dns_target["id"], "params": {"names": ["www.example.lab"], "qtype": "A"},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 3}], "pause_s": 0, "repeat": 2}  # fmt: skip
    plan = stack.api.post("/api/v1/plans", json=body).json()
    campaign = stack.api.post("/api/v1/campaigns", json={"plan_id": plan["id"]}).json()
    seen_running, seen_live = False, False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        now = scrape(stack)
        seen_running |= value(now, "kneeboard_campaigns", status="running") >= 1
        seen_live |= value(now, "kneeboard_live_point_metric", campaign_id=str(campaign["id"]), headline="true") > 0
        if stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["status"] in {"completed", "failed", "crashed", "cancelled"}:
            break
        time.sleep(0.5)
    after = scrape(stack)
    assert seen_running and seen_live
    assert value(after, "kneeboard_points_total", status="completed") >= value(before, "kneeboard_points_total", status="completed") + 2
    assert value(after, "kneeboard_point_duration_seconds_count") >= value(before, "kneeboard_point_duration_seconds_count") + 2
    assert value(after, "kneeboard_api_request_duration_seconds_count") > value(before, "kneeboard_api_request_duration_seconds_count")
