"""A plan's trend through the API: headline figures per completed campaign, change points where it moved."""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone

from kneeboard.trends.schemas import Trend
from tests.integration.test_cli import kb
from tests.support.trends import completed_campaign, plan_body

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _plan(stack, dns_target, repeat: int = 1) -> dict:
    response = stack.api.post("/api/v1/plans", json=plan_body(dns_target["id"], f"trend-{uuid.uuid4().hex[:6]}", repeat))
    assert response.status_code == 201, response.text
    return response.json()


def test_a_plans_trend_shows_each_campaign_and_where_capacity_changed(stack, dns_target):
    plan = _plan(stack, dns_target)
    tag = f"nightly-{uuid.uuid4().hex[:6]}"
    ids = [completed_campaign(plan, 8000 * (0.9 if night >= 15 else 1.0), seed=night, when=START + timedelta(days=night), tags=(tag,))
           for night in range(24)]  # fmt: skip
    trend = stack.api.get("/api/v1/trends", params={"plan_id": plan["id"]})
    assert trend.status_code == 200, trend.text
    body = trend.json()
    Trend.model_validate(body)  # the route writes its rows without FastAPI's check: they are in the schema's shape
    assert [p["campaign_id"] for p in body["points"]] == ids
    first = body["points"][0]
    assert first["capacity"]["kind"] == "between" and 7000 < first["capacity"]["value"] < 8500
    assert first["max_achieved_rate"] > 7500 and first["latency_p50_ms"] < 1 and first["latency_p99_ms"] < 2 and first["loss_pct"] == 0
    (change,) = body["change_points"]
    assert (change["before_campaign_id"], change["after_campaign_id"]) == (ids[14], ids[15])
    assert change["direction"] == "worse" and change["ci_low"] <= change["diff"] <= change["ci_high"] < 0
    assert -13 < change["change_pct"] < -7 and change["compare_url"] == f"/compare?c={ids[14]}&c={ids[15]}"
    assert stack.api.get(change["compare_url"].replace("/compare", "/api/v1/compare")).status_code == 200
    since = stack.api.get("/api/v1/trends", params={"plan_id": plan["id"], "since": (START + timedelta(days=20)).isoformat()}).json()
    assert [p["campaign_id"] for p in since["points"]] == ids[20:]
    by_tag = stack.api.get("/api/v1/trends", params={"tag": tag}).json()
    assert [p["campaign_id"] for p in by_tag["points"]] == ids and by_tag["change_points"][0]["after_campaign_id"] == ids[15]
    by_target = stack.api.get("/api/v1/trends", params={"target_id": dns_target["id"], "tool": "dnsperf", "metric": "max_achieved_rate"})
    assert by_target.status_code == 200 and by_target.json()["metric"] == "max_achieved_rate"
    changed = kb(stack, "trend", str(plan["id"]), "--fail-on-change", str(ids[10]))
    assert changed.returncode == 96, changed.stderr
    assert f"between {ids[14]} and {ids[15]}" in changed.stdout and f"/compare?c={ids[14]}&c={ids[15]}" in changed.stdout
    quiet = kb(stack, "trend", str(plan["id"]), "--metric", "loss_pct", "--since", (START + timedelta(days=20)).date().isoformat(), "--fail-on-change", str(ids[10]))
    assert quiet.returncode == 0 and "no change point in loss_pct over 4 campaign(s)" in quiet.stdout, quiet.stdout + quiet.stderr


def test_a_trend_names_what_is_wrong_with_its_query(stack):
    for params, field in (({}, "plan_id"), ({"plan_id": 1, "tag": "x"}, "tag"), ({"target_id": 1}, "tool"), ({"plan_id": 1, "metric": "nope"}, "metric")):
        refused = stack.api.get("/api/v1/trends", params=params)
        assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][-1] == field, (params, refused.text)
    assert stack.api.get("/api/v1/trends", params={"plan_id": 999_999}).status_code == 404


def test_the_worker_keeps_a_campaigns_trend_row_when_it_settles(stack, dns_target):
    from kneeboard.db import session_scope
    from kneeboard.trends.models import TrendEntry

    plan = {"name": f"settle-{uuid.uuid4().hex[:6]}", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 0,
            "phases": [{"kind": "saturation", "concurrency": 1, "rate": [100, 200], "duration_s": 1}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    deadline = time.monotonic() + 60
    while stack.api.get(f"/api/v1/campaigns/{campaign}").json()["status"] != "completed" and time.monotonic() < deadline:
        time.sleep(0.2)
    entry = None
    while entry is None and time.monotonic() < deadline:  # before any trend is read: the worker stores it right after the status
        with session_scope() as session:
            entry = session.get(TrendEntry, campaign)
            if entry is not None:
                assert entry.plan_id == plan_id and entry.max_achieved_rate > 50
        time.sleep(0.1)
    assert entry is not None
