"""The node monitor through the real stack: a target's metrics_url, a node_exporter on loopback, a dnsperf
campaign whose points each carry the server's per-CPU %soft within their own time span."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from datetime import datetime

import pytest

from kneeboard.lab.processes import wait_tcp
from tests.integration.test_campaign_run import wait_status
from tests.support.services import free_port

NODE_EXPORTER = "/usr/bin/prometheus-node-exporter"
POLICY = "/api/v1/policy/targets"
DONE = {"completed", "failed", "crashed", "cancelled"}


@pytest.fixture(scope="module")
def node_exporter():
    """Our own node_exporter on loopback (not Debian's service), ended by PID after the module."""
    if not shutil.which(NODE_EXPORTER):
        pytest.skip("prometheus-node-exporter is not installed")
    port = free_port()
    proc = subprocess.Popen([NODE_EXPORTER, f"--web.listen-address=127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_tcp("127.0.0.1", port, proc)
        yield f"http://127.0.0.1:{port}/metrics"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture()
def policy(stack):
    """The policy as it was; put back after the test."""
    before = stack.api.get(POLICY).json()
    yield before
    assert stack.api.put(POLICY, json={k: before[k] for k in ("networks", "hosts", "role_caps")}).status_code == 200


def target(stack, metrics_url: str | None) -> dict:
    body = {"name": f"unbound-node-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port,
            "metrics_url": metrics_url}
    response = stack.api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def plan(target_id: int, phases: list[dict], **extra) -> dict:
    return {"name": "node monitor", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2},
            "phases": phases, "monitors": [{"kind": "node"}], **extra}


def launch(stack, body: dict) -> int:
    created = stack.api.post("/api/v1/plans", json=body)
    assert created.status_code == 201, created.text
    launched = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]})
    assert launched.status_code == 202, launched.text
    return launched.json()["id"]


def epoch(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def test_each_point_carries_the_servers_per_cpu_soft(stack, node_exporter):
    server = target(stack, node_exporter)
    assert server["metrics_url"] == node_exporter
    phases = [{"kind": "scalability", "concurrency": [1, 4], "unit_rate": 500, "duration_s": 4}]
    campaign = wait_status(stack.api, launch(stack, plan(server["id"], phases)), DONE, timeout_s=120)
    points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    assert campaign["status"] == "completed" and campaign["target"]["metrics_url"] == node_exporter, [p["error"] for p in points]
    cpus = os.cpu_count()
    for point in points:
        assert point["status"] == "completed" and not [w for w in point["warnings"] if "node" in w], point["warnings"]
        samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
        soft = [s for s in samples if s["series"].startswith("node.cpu")]
        assert {s["series"] for s in soft} == {f"node.cpu{n}" for n in range(cpus)}
        assert all(0 <= s["values"]["soft"] <= 100 for s in soft)
        assert len({s["t"] for s in soft}) >= 2  # a 4 s point: at least two 1 s intervals
        began, ended = epoch(point["started_at"]), epoch(point["ended_at"])
        assert all(began <= s["t"] <= ended for s in soft), (began, ended, [s["t"] for s in soft])
        assert any(s["series"].startswith("node.softnet.cpu") for s in samples)
        summary = point["extra"]["monitors"]["node"]
        assert set(summary["soft_mean_pct_by_cpu"]) == {str(n) for n in range(cpus)} and summary["scrape_errors"] == 0
        print(f"\nfigures: c={point['concurrency']} {point['metrics']['achieved_rate']:.0f} qps, server %soft by CPU "
              f"{ {k: round(v, 2) for k, v in summary['soft_mean_pct_by_cpu'].items()} }, {len(soft)} samples")


def test_a_dead_endpoint_is_a_warning_and_the_point_stays(stack):
    dead = f"http://127.0.0.1:{free_port()}/metrics"  # nothing listens there
    server = target(stack, dead)
    campaign = wait_status(stack.api, launch(stack, plan(server["id"], [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 2}])),
                           DONE, timeout_s=60)
    point = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()[0]
    assert campaign["status"] == "completed" and point["status"] == "completed" and point["metrics"]["achieved_rate"] > 0
    warning = next(w for w in point["warnings"] if w.startswith("monitor node:"))
    assert "0 successful scrape(s)" in warning and "Connection refused" in warning


def test_metrics_url_is_checked_like_the_host(stack, dns_target):
    body = {"name": f"t-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
    for url, why in [("http://192.0.2.1:9100/metrics", "target policy"), ("file:///etc/passwd", "http://"),
                     ("http://127.0.0.1:9100/metrics?collect[]=cpu", "no user, query")]:
        refused = stack.api.post("/api/v1/targets", json={**body, "metrics_url": url})
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"][0]
        assert detail["loc"][-1] == "metrics_url" and why in detail["msg"], detail
    patched = stack.api.patch(f"/api/v1/targets/{dns_target['id']}", json={"metrics_url": "http://[::1]:9100/metrics"})
    assert patched.status_code == 200 and patched.json()["metrics_url"] == "http://[::1]:9100/metrics"
    refused = stack.api.patch(f"/api/v1/targets/{dns_target['id']}", json={"metrics_url": "http://10.0.0.1:9100/metrics"})
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"] == ["body", "metrics_url"]
    cleared = stack.api.patch(f"/api/v1/targets/{dns_target['id']}", json={"metrics_url": None})
    assert cleared.status_code == 200 and cleared.json()["metrics_url"] is None


def test_a_node_monitor_needs_the_targets_metrics_url(stack, dns_target):
    body = plan(dns_target["id"], [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 2}])
    response = stack.api.post("/api/v1/plans", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"][0]
    assert detail["loc"][-3:] == ["monitors", 0, "kind"] and "metrics_url" in detail["msg"]
    smuggled = stack.api.post("/api/v1/plans", json={**body, "monitors": [{"kind": "node", "metrics_url": "http://127.0.0.1:1/m"}]})
    assert smuggled.status_code == 422  # a plan never names the endpoint


def test_worker_refuses_a_point_whose_metrics_host_left_the_policy(stack, policy, node_exporter):
    """Target on 127.0.0.1, its metrics on 127.0.0.2; the policy drops 127.0.0.2 during the first point."""
    server = target(stack, node_exporter.replace("127.0.0.1", "127.0.0.2"))
    phases = [{"kind": "scalability", "concurrency": [1, 2], "unit_rate": 100, "duration_s": 2}]
    campaign_id = launch(stack, plan(server["id"], phases, pause_s=2))
    deadline = time.monotonic() + 60
    while stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]["status"] == "pending":
        assert time.monotonic() < deadline, "the first point never started"
        time.sleep(0.1)
    networks = ["127.0.0.1/32", *(n for n in policy["networks"] if not n.startswith("127."))]
    assert stack.api.put(POLICY, json={**{k: policy[k] for k in ("hosts", "role_caps")}, "networks": networks}).status_code == 200
    wait_status(stack.api, campaign_id, DONE, timeout_s=60)
    second = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[1]
    assert second["status"] == "failed" and "127.0.0.2" in second["error"] and "target policy" in second["error"], second
