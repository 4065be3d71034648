"""The address checked is the address loaded: a target named by a host name is resolved once, when the worker
checks the policy before the point, and the tool is given that address (the name only as the HTTP Host)."""

from __future__ import annotations

import socket

from tests.integration.test_campaign_run import wait_status
from tests.support.kbhttp_server import serving


def test_an_http_target_named_localhost_is_loaded_at_its_checked_address(stack):
    checked = socket.getaddrinfo("localhost", None, type=socket.SOCK_STREAM)[0][4][0]  # what the worker's check sees first
    with serving(lifetime_s=60) as port:
        target = stack.api.post("/api/v1/targets", json={"name": f"named-{port}", "kind": "http", "host": "localhost", "port": port})
        assert target.status_code == 201, target.text
        plan = {"name": "pinned", "tool": "kbhttp", "target_id": target.json()["id"], "pause_s": 0,
                "phases": [{"kind": "baseline", "concurrency": 2, "rate": 50, "duration_s": 1}]}  # fmt: skip
        plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
        campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
        wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
        [point] = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        argv = stack.api.get(f"/api/v1/points/{point['id']}").json()["argv"]
    url = argv[argv.index("--url") + 1]
    shown = f"[{checked}]" if ":" in checked else checked
    assert url.startswith(f"http://{shown}:{port}/") and "localhost" not in url, argv
    assert argv[argv.index("--host") + 1] == f"localhost:{port}"
    if checked == "127.0.0.1":  # the server listens on IPv4 loopback only
        assert point["status"] == "completed" and point["metrics"]["completed"] > 0, point["error"]
