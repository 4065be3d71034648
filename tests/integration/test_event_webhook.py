"""The webhook point event (issue 39): `webhook.send` POSTs once, signed, at its time, from the worker, to a webhook
subscribed to "action" — never through the outbox, so a 5xx is a warning on the point and no second POST follows."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid

from tests.integration.test_campaign_run import wait_status
from tests.integration.test_webhooks import Receiver
from tests.support.trends import plan_body


def event_plan(target_id: int, events: list[dict]) -> dict:
    return {"name": f"webhook event {uuid.uuid4().hex[:6]}", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "timeout_s": 2},
            "phases": [{"kind": "stability", "concurrency": 1, "rate": 200, "duration_s": 3, "events": events}]}  # fmt: skip


def hook_for(stack, dns_target, receiver: Receiver, events: list[str]) -> dict:
    owner = stack.api.post("/api/v1/plans", json=plan_body(dns_target["id"], f"hook-owner-{uuid.uuid4().hex[:6]}", 3)).json()
    created = stack.api.post("/api/v1/webhooks", json={"url": receiver.url, "plan_id": owner["id"], "events": events})
    assert created.status_code == 201, created.text
    return created.json()


def run_point(stack, plan: dict) -> dict:
    created = stack.api.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    assert wait_status(stack.api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, 60)["status"] == "completed"
    (point,) = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    return stack.api.get(f"/api/v1/points/{point['id']}").json()


def test_a_webhook_event_is_posted_once_at_its_time_and_a_5xx_is_not_retried(stack, dns_target):
    assert stack.api.put("/api/v1/policy/webhooks", json={"networks": ["127.0.0.0/8"]}).status_code == 200
    receiver = Receiver([200, 503])
    hook = hook_for(stack, dns_target, receiver, ["action"])
    point = run_point(stack, event_plan(dns_target["id"], [{"at_s": 1, "action": "webhook.send", "value": str(hook["id"])}]))
    (record,) = point["extra"]["events"]
    assert record["http_status"] == 200 and "error" not in record, record
    (headers, body), = receiver.received
    signed = hmac.new(hook["secret"].encode(), headers["X-Kneeboard-Timestamp"].encode() + b"." + body, hashlib.sha256)
    assert headers["X-Kneeboard-Signature"] == "sha256=" + signed.hexdigest() and headers["X-Kneeboard-Event"] == "action"
    message = json.loads(body)
    assert message["webhook_id"] == hook["id"] and abs(message["sent_at"] - record["t"]) < 0.5, (message, record)
    assert (message["point_id"], message["at_s"]) == (point["id"], 1) and message["campaign_id"] == point["campaign_id"], message
    print(f"\nfigures: webhook event sent {record['done'] - record['t']:.4f} s after it fired")

    failing = run_point(stack, event_plan(dns_target["id"], [{"at_s": 1, "action": "webhook.send", "value": str(hook["id"])}]))
    (record,) = failing["extra"]["events"]
    assert "HTTP 503 (sent once, not retried)" in record["error"], record
    assert any("webhook.send" in w and "503" in w for w in failing["warnings"]), failing["warnings"]
    time.sleep(2)
    assert len(receiver.received) == 2  # the 503 was not followed by a retry
    assert stack.api.get("/api/v1/webhooks/deliveries", params={"webhook_id": hook["id"]}).json() == []  # not the outbox


def test_a_webhook_event_needs_a_webhook_subscribed_to_action(stack, dns_target):
    assert stack.api.put("/api/v1/policy/webhooks", json={"networks": ["127.0.0.0/8"]}).status_code == 200
    hook = hook_for(stack, dns_target, Receiver([]), ["regression"])
    for value, why in ((str(hook["id"]), 'not subscribed to \\"action\\"'), ("99999", "does not exist"), ("x1", "is not a webhook's id")):
        answer = stack.api.post("/api/v1/plans", json=event_plan(dns_target["id"], [{"at_s": 1, "action": "webhook.send", "value": value}]))
        assert answer.status_code == 422 and why in answer.text, answer.text
