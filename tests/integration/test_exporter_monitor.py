"""The exporter monitor through the real stack: a target lists its exporters, a plan names which to scrape, and each
point carries `server.<pack>.<query>` series and a summary from a real node_exporter, while a dripping, redirecting,
oversized, garbage, too-many-series, policy-refused or re-resolving exporter only warns: the point is measured."""

from __future__ import annotations

import time
import uuid

import httpx
import pytest

from kneeboard.stack import start_api, start_worker, stop
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_fanout import agents, fanned_plan, run_plan  # noqa: F401 - a fixture
from tests.integration.test_node_monitor import POLICY, epoch, node_exporter, policy  # noqa: F401 - fixtures
from tests.support.exporter_servers import Endpoint
from tests.support.flip_dns import FlipDNS
from tests.support.services import wait_for_agent

pytestmark = pytest.mark.lab  # the host's own network: the real node_exporter's net_rx reads its interfaces

DONE = {"completed", "failed", "crashed", "cancelled"}


def make_target(api, stack, exporters: list[dict]) -> dict:
    body = {"name": f"exp-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port,
            "exporters": exporters}
    response = api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def plan(target_id: int, names: list[str], phases: list[dict], **extra) -> dict:
    return {"name": "exporters", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2}, "phases": phases,
            "monitors": [{"kind": "exporter", "exporter": n} for n in names], **extra}


def launch(api, body: dict, **launch_extra) -> int:
    created = api.post("/api/v1/plans", json=body)
    assert created.status_code == 201, created.text
    launched = api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"], **launch_extra})
    assert launched.status_code == 202, launched.text
    return launched.json()["id"]


def points_of(api, campaign_id: int) -> list[dict]:
    return api.get(f"/api/v1/campaigns/{campaign_id}/points").json()


def warning(point: dict, label: str) -> str:
    found = [w for w in point["warnings"] if w.startswith(f"monitor exporter.{label}")]
    assert found, (label, point["warnings"])
    return found[0]


ONE_POINT = [{"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 3}]


def test_a_real_node_exporter_beside_four_broken_ones(stack, node_exporter):  # noqa: F811
    with Endpoint("ok") as fine, Endpoint("drip") as drip, Endpoint("redirect", location=node_exporter) as moved, \
            Endpoint("oversized") as big, Endpoint("garbage") as junk:
        exporters = [{"name": "node", "url": node_exporter, "packs": ["node"]},
                     {"name": "drip", "url": drip.url, "packs": ["coredns"]},
                     {"name": "moved", "url": moved.url, "packs": ["haproxy"]},
                     {"name": "big", "url": big.url, "packs": ["go"]},
                     {"name": "junk", "url": junk.url, "packs": ["process"]}]
        target = make_target(stack.api, stack, exporters)
        assert [e["name"] for e in target["exporters"]] == ["node", "drip", "moved", "big", "junk"]
        body = plan(target["id"], ["node", "drip", "moved", "big", "junk"], ONE_POINT)
        campaign = wait_status(stack.api, launch(stack.api, body), DONE, timeout_s=90)
        [point] = points_of(stack.api, campaign["id"])
        assert fine.requests == []  # not listed on the target: never scraped
    assert campaign["status"] == "completed" and point["status"] == "completed", point["error"]
    assert point["metrics"]["achieved_rate"] > 150
    took = epoch(point["ended_at"]) - epoch(point["started_at"])
    assert took < 3 + 4.5, f"a dripping exporter stalled the point: {took:.1f} s"
    assert "timed out" in warning(point, "drip") and len(drip.requests) >= 2
    assert "HTTP 302" in warning(point, "moved") and "not followed" in warning(point, "moved")
    assert "larger than 4194304 bytes" in warning(point, "big")
    assert "not Prometheus text" in warning(point, "junk")
    assert not [w for w in point["warnings"] if w.startswith("monitor exporter.node")], point["warnings"]
    samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
    cpu = [s for s in samples if s["series"] == "server.node.cpu"]
    began, ended = epoch(point["started_at"]), epoch(point["ended_at"])
    assert len(cpu) >= 2 and all(began <= s["t"] <= ended for s in cpu)
    assert all(0 <= v <= 100.5 for s in cpu for k, v in s["values"].items() if v is not None)
    assert {"server.node.net_rx", "server.node.softnet_dropped", "server.node.load1"} <= {s["series"] for s in samples}
    summary = point["extra"]["monitors"]["exporter.node"]
    assert summary["scrape_errors"] == 0 and summary["series_dropped"] == 0 and summary["packs"]["node"]["mem_available"]["value"] > 0
    soft = {k: round(v, 2) for k, v in summary["packs"]["node"]["cpu"].items() if k.endswith(".softirq")}
    print(f"\nfigures: point {took:.2f} s for a 3 s point; exporter.node {summary['scrapes']} scrapes, {summary['series_kept']} series; "
          f"%softirq by CPU {soft}; drip reached {len(drip.requests)} times")


def test_series_over_the_cap_are_dropped_with_a_warning_and_a_refused_exporter_is_left_out(stack, policy):  # noqa: F811
    """The second point runs after the policy dropped 127.0.0.2, where the `far` exporter listens: it is not scraped."""
    page = b"# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.5\n"
    with Endpoint("many") as many, Endpoint("ok", "127.0.0.2", page=page) as far:
        target = make_target(stack.api, stack, [{"name": "many", "url": many.url, "packs": ["node"]},
                                                {"name": "far", "url": far.url, "packs": ["process"]}])
        phases = [{"kind": "scalability", "concurrency": [1, 2], "unit_rate": 100, "duration_s": 2}]
        campaign_id = launch(stack.api, plan(target["id"], ["many", "far"], phases, pause_s=2))
        deadline = time.monotonic() + 60
        while points_of(stack.api, campaign_id)[0]["status"] == "pending":
            assert time.monotonic() < deadline, "the first point never started"
            time.sleep(0.1)
        networks = ["127.0.0.1/32", *(n for n in policy["networks"] if not n.startswith("127."))]
        assert stack.api.put(POLICY, json={**{k: policy[k] for k in ("hosts", "role_caps")}, "networks": networks}).status_code == 200
        campaign = wait_status(stack.api, campaign_id, DONE, timeout_s=60)
        first, second = points_of(stack.api, campaign_id)
        reached_far = len(far.requests)
    assert campaign["status"] == "completed" and second["status"] == "completed", second["error"]
    assert second["metrics"]["achieved_rate"] > 0
    assert "100 series over the cap of 200" in warning(first, "many") and "100 series over" in warning(second, "many")
    refused = warning(second, "far")
    assert "not started" in refused and "127.0.0.2" in refused and "target policy" in refused
    assert "exporter.far" not in second["extra"].get("monitors", {})
    assert reached_far >= 1  # during the first point only
    kept = second["extra"]["monitors"]["exporter.many"]
    assert kept["series_kept"] == 200 and kept["series_dropped"] == 100
    samples = stack.api.get(f"/api/v1/points/{second['id']}/samples").json()["samples"]
    cpus = {k.split(".")[0] for s in samples if s["series"] == "server.node.cpu" for k in s["values"]}
    assert cpus == {str(n) for n in range(50)}  # 200 of the 300 series: CPUs 0..49, 4 modes each


def test_an_exporter_is_checked_and_named_like_the_host(stack, dns_target):
    base = {"name": f"t-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
    for exporters, loc, why in [
        ([{"name": "x", "url": "http://192.0.2.1:9153/metrics", "packs": ["coredns"]}], ["exporters", 0, "url"], "target policy"),
        ([{"name": "x", "url": "http://127.0.0.1:9153/metrics?a=1", "packs": ["coredns"]}], ["exporters", 0, "url"], "no user, query"),
        ([{"name": "x", "url": "http://127.0.0.1:9153/metrics", "packs": ["nope"]}], ["exporters", 0, "packs", 0], "no pack 'nope'"),
        ([{"name": "x", "url": "http://127.0.0.1:1/m", "packs": ["go"]}, {"name": "x", "url": "http://127.0.0.1:2/m", "packs": ["process"]}],
         ["exporters", 1, "name"], "another exporter"),
        ([{"name": "a", "url": "http://127.0.0.1:1/m", "packs": ["go"]}, {"name": "b", "url": "http://127.0.0.1:2/m", "packs": ["go"]}],
         ["exporters", 1, "packs", 0], "reads exporter 'a' already"),
        ([{"name": f"e{i}", "url": f"http://127.0.0.1:{i + 1}/m", "packs": ["go"]} for i in range(9)], ["exporters"], "at most 8"),
    ]:
        refused = stack.api.post("/api/v1/targets", json={**base, "exporters": exporters})
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"][0]
        assert detail["loc"][1:1 + len(loc)] == loc and why in detail["msg"], detail
    patched = stack.api.patch(f"/api/v1/targets/{dns_target['id']}",
                              json={"exporters": [{"name": "dns", "url": "http://127.0.0.1:9153/metrics", "packs": ["coredns", "process"]}]})
    assert patched.status_code == 200 and patched.json()["exporters"][0]["packs"] == ["coredns", "process"]
    phases = [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 2}]
    unknown = stack.api.post("/api/v1/plans", json=plan(dns_target["id"], ["other"], phases))
    assert unknown.status_code == 422
    detail = unknown.json()["detail"][0]
    assert detail["loc"][-3:] == ["monitors", 0, "exporter"] and "no exporter named 'other'" in detail["msg"] and "dns" in detail["msg"]
    smuggled = stack.api.post("/api/v1/plans", json={**plan(dns_target["id"], ["dns"], phases),
                                                     "monitors": [{"kind": "exporter", "exporter": "dns", "url": "http://127.0.0.1:1/m"}]})
    assert smuggled.status_code == 422  # a plan never names the endpoint
    assert stack.api.post("/api/v1/plans", json=plan(dns_target["id"], ["dns"], phases)).status_code == 201
    assert stack.api.patch(f"/api/v1/targets/{dns_target['id']}", json={"exporters": []}).status_code == 200
    packs = stack.api.get("/api/v1/exporters/packs").json()
    coredns = next(p for p in packs if p["name"] == "coredns")
    assert {q["series"] for q in coredns["queries"]} >= {"server.coredns.requests", "server.coredns.duration"}


def test_a_name_that_moves_after_the_check_is_scraped_at_the_checked_address(stack):
    """The exporter's name answers 127.0.0.1 (allowed) to the check, then 127.0.0.2 (outside the narrowed policy)
    while the point runs: every scrape reaches 127.0.0.1 with the name as its Host header, none 127.0.0.2."""
    before = stack.api.get(POLICY).json()
    narrowed = {"networks": ["127.0.0.1/32", "::1/128"], "hosts": before["hosts"], "role_caps": before["role_caps"]}
    rundir = stack.tmp / "exp-ttl0"
    with FlipDNS("exporter.test.", "127.0.0.1") as names, Endpoint("ok") as first, Endpoint("ok", "127.0.0.2", first.port) as second:
        env = {**stack.env, "DNS_RESOLVER": f"127.0.0.1:{names.port}", "AGENT_NAME": "expttl0"}
        api_proc, api_url = start_api(env, rundir, log="api-exp-ttl0.log")
        worker = start_worker(env, rundir)
        stack.started += [api_proc, worker]
        api = httpx.Client(base_url=api_url, timeout=30, headers={"Authorization": f"Bearer {stack.admin_token}"})
        try:
            wait_for_agent(api, "expttl0")
            assert stack.api.put(POLICY, json=narrowed).status_code == 200
            url = f"http://exporter.test:{first.port}/metrics"
            target = make_target(api, stack, [{"name": "moving", "url": url, "packs": ["node"]}])
            campaign_id = launch(api, plan(target["id"], ["moving"], [{**ONE_POINT[0], "duration_s": 4}]), agent="expttl0")
            deadline = time.monotonic() + 60
            while not first.requests:
                assert time.monotonic() < deadline, "the exporter was never scraped"
                time.sleep(0.05)
            names.flip("127.0.0.2")  # the worker has checked; a scraper looking the name up again now gets 127.0.0.2
            campaign = wait_status(api, campaign_id, DONE, timeout_s=60)
            [point] = points_of(api, campaign_id)
            samples = api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
        finally:
            stack.api.put(POLICY, json={k: before[k] for k in ("networks", "hosts", "role_caps")})
            stop(worker)
            stop(api_proc)
    print(f"\nfigures: {len(first.requests)} scrapes at 127.0.0.1, {len(second.requests)} at 127.0.0.2")
    assert campaign["status"] == "completed" and point["status"] == "completed", point["error"]
    assert second.requests == [] and len(first.requests) >= 3
    assert {host for _, host in first.requests} == {f"exporter.test:{first.port}"}
    assert len([s for s in samples if s["series"] == "server.node.cpu"]) >= 2
    assert not [w for w in point["warnings"] if "exporter" in w], point["warnings"]


def test_a_fanned_point_keeps_its_monitors(stack, agents, node_exporter):  # noqa: F811
    """The agents run the load; the conductor scrapes beside it and the point keeps the summary (extra.monitors)."""
    target = make_target(stack.api, stack, [{"name": "node", "url": node_exporter, "packs": ["node"]}])
    body = fanned_plan(target["id"], name="fanned exporter", monitors=[{"kind": "exporter", "exporter": "node"}],
                       phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 3}])
    campaign, point = run_plan(stack, body)
    assert campaign["status"] == "completed" and len(point["extra"]["shares"]) == 2, point.get("error")
    summary = point["extra"]["monitors"]["exporter.node"]
    assert summary["scrapes"] >= 3 and summary["packs"]["node"]["cpu"], summary
    samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
    assert {"agent.a1", "agent.a2", "server.node.cpu"} <= {s["series"] for s in samples}
