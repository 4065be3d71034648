"""The address checked is the address loaded: a target named by a host name is resolved once, when the worker
checks the policy before the point, and the tool is given that address (the name only as the HTTP Host)."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx

from kneeboard.stack import start_api, start_worker, stop
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_fanout import descendants
from tests.support.counting_http import CountingHTTP
from tests.support.flip_dns import FlipDNS
from tests.support.services import wait_for_agent
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


def _loading(worker_pid: int) -> bool:
    """Whether a `kbhttp run` is below the worker (not the `kbhttp --version` of the environment facts, taken before the check)."""
    for pid in descendants(worker_pid, "kbhttp"):
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:2] == [b"run"]:
                return True
        except OSError:
            continue
    return False


def test_a_name_that_moves_after_the_check_keeps_every_request_on_the_checked_address(stack):
    """A DNS server with TTL 0 answers 127.0.0.1 (allowed) to the checks, then 127.0.0.2 (outside the narrowed
    policy) once the tool runs: every request of the point reaches 127.0.0.1, none 127.0.0.2."""
    before = stack.api.get("/api/v1/policy/targets").json()
    narrowed = {"networks": ["127.0.0.1/32", "::1/128"], "hosts": before["hosts"], "role_caps": before["role_caps"]}
    rundir = stack.tmp / "ttl0"
    with FlipDNS("moving.test.", "127.0.0.1") as names, CountingHTTP("127.0.0.1") as first, CountingHTTP("127.0.0.2", first.port) as second:
        env = {**stack.env, "DNS_RESOLVER": f"127.0.0.1:{names.port}", "AGENT_NAME": "ttl0"}
        api_proc, api_url = start_api(env, rundir, log="api-ttl0.log")  # API and worker both ask this DNS server
        worker = start_worker(env, rundir)
        stack.started += [api_proc, worker]
        api = httpx.Client(base_url=api_url, timeout=30, headers={"Authorization": f"Bearer {stack.admin_token}"})
        try:
            wait_for_agent(api, "ttl0")
            assert stack.api.put("/api/v1/policy/targets", json=narrowed).status_code == 200
            target = api.post("/api/v1/targets", json={"name": "moving", "kind": "http", "host": "moving.test", "port": first.port})
            assert target.status_code == 201, target.text
            plan = {"name": "moving name", "tool": "kbhttp", "target_id": target.json()["id"], "pause_s": 0,
                    "phases": [{"kind": "baseline", "concurrency": 2, "rate": 100, "duration_s": 3}]}  # fmt: skip
            plan_id = api.post("/api/v1/plans", json=plan).json()["id"]
            campaign_id = api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "ttl0"}).json()["id"]
            deadline = time.monotonic() + 60
            while not _loading(worker.pid):
                assert time.monotonic() < deadline, "kbhttp never ran"
                time.sleep(0.05)
            names.flip("127.0.0.2")  # the worker has checked; a tool looking the name up again now gets 127.0.0.2
            checked = len(names.queries)
            campaign = wait_status(api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
            [point] = api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
            moved = api.post("/api/v1/targets", json={"name": "moving-2", "kind": "http", "host": "moving.test", "port": first.port})
        finally:
            stack.api.put("/api/v1/policy/targets", json={k: before[k] for k in ("networks", "hosts", "role_caps")})
            stop(worker)
            stop(api_proc)
    print(f"\nfigures: {first.count} requests at 127.0.0.1, {second.count} at 127.0.0.2; DNS queries {checked} before the flip, "
          f"{len(names.queries) - checked} after")
    assert campaign["status"] == "completed" and point["metrics"]["completed"] > 50, point["error"]
    assert second.count == 0 and first.count >= point["metrics"]["completed"]
    assert moved.status_code == 422 and "policy" in moved.text, "after the flip, a check sees 127.0.0.2 and refuses it"
