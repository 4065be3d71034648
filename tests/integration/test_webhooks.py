"""Webhooks end to end: a loopback receiver gets one signed POST per regression, again after a 5xx, none for an
unchanged campaign; destinations outside the webhook allow-list are refused."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support.trends import completed_campaign, plan_body


class Receiver:
    """An HTTP server on loopback that answers each POST with the next status of `answers` (then 200) and keeps it."""

    def __init__(self, answers: list[int]) -> None:
        self.answers, self.received = list(answers), []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.received.append((dict(self.headers), body))
                self.send_response(outer.answers.pop(0) if outer.answers else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def wait(self, count: int, timeout_s: float = 40) -> list:
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.received


def test_one_signed_post_per_regression_retried_after_a_5xx_none_when_unchanged(stack, dns_target):
    plan = stack.api.post("/api/v1/plans", json=plan_body(dns_target["id"], f"hooked-{uuid.uuid4().hex[:6]}", 3)).json()
    receiver = Receiver([503])
    refused = stack.api.post("/api/v1/webhooks", json={"url": receiver.url, "plan_id": plan["id"]})
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][-1] == "url"  # the allow-list is empty
    assert stack.api.put("/api/v1/policy/webhooks", json={"networks": ["127.0.0.0/8"]}).status_code == 200
    created = stack.api.post("/api/v1/webhooks", json={"url": receiver.url, "plan_id": plan["id"], "events": ["regression"]})
    assert created.status_code == 201, created.text
    hook = created.json()
    assert "secret" not in stack.api.get("/api/v1/webhooks").json()[0]
    baseline = completed_campaign(plan, 8000, seed=1)
    assert stack.api.put(f"/api/v1/plans/{plan['id']}/baseline", json={"campaign_id": baseline}).status_code == 200
    unchanged = completed_campaign(plan, 8000, seed=2)
    regressed = completed_campaign(plan, 5000, seed=3)
    completed_campaign(plan, 8000, seed=4)
    received = receiver.wait(2)
    time.sleep(1)  # nothing more comes
    assert len(receiver.received) == 2, [json.loads(b) for _h, b in receiver.received]
    (headers, body), (headers_again, body_again) = received
    assert body == body_again and headers["X-Kneeboard-Delivery"] == headers_again["X-Kneeboard-Delivery"]  # the same message, retried
    signed = hmac.new(hook["secret"].encode(), headers_again["X-Kneeboard-Timestamp"].encode() + b"." + body_again, hashlib.sha256)
    assert headers_again["X-Kneeboard-Signature"] == "sha256=" + signed.hexdigest()
    message = json.loads(body)
    assert message["event"] == "regression" and message["campaign_id"] == regressed and message["baseline_campaign_id"] == baseline
    assert f"campaign {regressed} " in message["text"] and unchanged != regressed  # the unchanged one sent nothing (2 POSTs in all)
    deliveries = stack.api.get("/api/v1/webhooks/deliveries", params={"webhook_id": hook["id"]}).json()
    assert [(d["status"], d["attempts"], d["last_status"]) for d in deliveries] == [("delivered", 2, 200)]
    audit = stack.api.get("/api/v1/audit", params={"kind": "webhook"}).json()["items"]
    assert {"create", "delivered"} <= {e["action"] for e in audit if e["obj_id"] == str(hook["id"])}


def test_the_allow_list_is_for_admins_and_checked_again_before_sending(stack, dns_target):
    from tests.support.roles import client_for

    with client_for(stack, "operator") as operator:
        assert operator.put("/api/v1/policy/webhooks", json={"networks": ["0.0.0.0/0"]}).status_code == 403
    bad = stack.api.put("/api/v1/policy/webhooks", json={"networks": ["not-a-net"]})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"][-2:] == ["networks", 0]
    for url in ("ftp://127.0.0.1/x", "http://user:pw@127.0.0.1/x", "http://-x/"):
        assert stack.api.post("/api/v1/webhooks", json={"url": url, "plan_id": 1}).json()["detail"][0]["loc"][-1] == "url"
