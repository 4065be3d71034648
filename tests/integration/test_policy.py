"""The target policy: refused addresses at the API, admin-only changes, role caps, and the worker's recheck."""

from __future__ import annotations

import time
import uuid

import pytest

from tests.support.roles import client_for

POLICY = "/api/v1/policy/targets"
REFUSED = ["8.8.8.8", "10.0.0.1", "169.254.169.254", "fd00:ec2::254", "134744072", "0x7f.1", "0177.0.0.1", "127.1",
           "fe80::1%lo", "fe80::1", "::ffff:169.254.169.254", "0.0.0.0", "224.0.0.1"]  # fmt: skip


@pytest.fixture()
def policy(stack):
    """The policy as it was; put back after the test."""
    before = stack.api.get(POLICY).json()
    yield before
    keep = {k: before[k] for k in ("networks", "hosts", "role_caps")}
    assert stack.api.put(POLICY, json=keep).status_code == 200


def target(host: str, **extra) -> dict:
    return {"name": f"t-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": host, "port": 53, **extra}


def names_policy(response) -> bool:
    detail = response.json()["detail"]
    return any("target policy" in d["msg"] for d in detail)


def test_default_policy_is_loopback_and_the_lab(stack):
    got = stack.api.get(POLICY)
    assert got.status_code == 200
    assert {"127.0.0.0/8", "::1/128", "10.77.0.0/24"} <= set(got.json()["networks"])


@pytest.mark.parametrize("host", REFUSED)
def test_targets_outside_the_policy_are_refused(stack, host):
    response = stack.api.post("/api/v1/targets", json=target(host))
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "host"] and names_policy(response)


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "127.0.0.2"])
def test_loopback_targets_are_accepted(stack, host):
    assert stack.api.post("/api/v1/targets", json=target(host)).status_code == 201


def test_changing_a_target_to_a_refused_host_is_refused(stack, dns_target):
    response = stack.api.patch(f"/api/v1/targets/{dns_target['id']}", json={"host": "169.254.169.254"})
    assert response.status_code == 422 and names_policy(response)


def test_admin_widens_the_policy_then_the_target_is_accepted(stack, policy):
    assert stack.api.post("/api/v1/targets", json=target("10.0.0.1")).status_code == 422
    widened = stack.api.put(POLICY, json={**policy_body(policy), "networks": [*policy["networks"], "10.0.0.0/30"]})
    assert widened.status_code == 200 and widened.json()["updated_by"]
    assert stack.api.post("/api/v1/targets", json=target("10.0.0.1")).status_code == 201
    assert stack.api.post("/api/v1/targets", json=target("10.0.0.9")).status_code == 422


def test_metadata_needs_an_explicit_entry_even_under_a_wide_network(stack, policy):
    stack.api.put(POLICY, json={**policy_body(policy), "networks": [*policy["networks"], "0.0.0.0/0"]})
    assert stack.api.post("/api/v1/targets", json=target("169.254.169.254")).status_code == 422
    stack.api.put(POLICY, json={**policy_body(policy), "networks": [*policy["networks"], "169.254.169.254/32"]})
    assert stack.api.post("/api/v1/targets", json=target("169.254.169.254")).status_code == 201


def policy_body(policy: dict) -> dict:
    return {k: policy[k] for k in ("networks", "hosts", "role_caps")}


def ping_plan(target_id: int, host: str) -> dict:
    return {"name": "ping monitored", "tool": "dnsperf", "target_id": target_id, "monitors": [{"kind": "ping", "host": host}],
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}]}  # fmt: skip


@pytest.mark.parametrize("host", ["8.8.8.8", "169.254.169.254", "134744072"])
def test_a_ping_monitor_outside_the_policy_is_refused(stack, dns_target, host):
    response = stack.api.post("/api/v1/plans", json=ping_plan(dns_target["id"], host))
    assert response.status_code == 422, response.text
    loc = response.json()["detail"][0]["loc"]
    assert loc[2:4] == ["monitors", 0] and loc[-1] == "host" and names_policy(response), loc


def test_a_ping_monitor_on_loopback_is_accepted(stack, dns_target):
    assert stack.api.post("/api/v1/plans", json=ping_plan(dns_target["id"], "127.0.0.1")).status_code == 201


def test_only_admins_change_the_policy_everyone_reads_it(stack, policy):
    for role in ("viewer", "operator"):
        with client_for(stack, role) as client:
            assert client.get(POLICY).status_code == 200
            assert client.put(POLICY, json=policy_body(policy)).status_code == 403
    assert stack.api.put(POLICY, json=policy_body(policy)).status_code == 200


@pytest.mark.parametrize("body", [
    {"networks": ["not-a-network"]}, {"networks": ["10.0.0.0/33"]}, {"networks": ["fe80::/64%eth0"]},
    {"hosts": ["-rf"]}, {"hosts": ["8.8.8.8"]}, {"role_caps": {"root": {}}}, {"role_caps": {"operator": {"max_rate": -1}}},
    {"networks": ["127.0.0.0/8"], "extra": 1},
])  # fmt: skip
def test_malformed_policies_are_refused(stack, body):
    assert stack.api.put(POLICY, json=body).status_code == 422


def test_role_caps_limit_what_an_operator_may_plan(stack, policy, dns_target):
    stack.api.put(POLICY, json={**policy_body(policy), "role_caps": {"operator": {"max_rate": 500, "max_duration_s": 5}}})
    plan = {"name": "capped", "tool": "dnsperf", "target_id": dns_target["id"],
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 1000, "duration_s": 1}]}  # fmt: skip
    with client_for(stack, "operator") as operator:
        refused = operator.post("/api/v1/plans", json=plan)
        assert refused.status_code == 422 and "max_rate" in refused.json()["detail"][0]["msg"]
        assert refused.json()["detail"][0]["loc"][-3:] == ["phases", 0, "rate"]
        plan["phases"][0]["rate"] = 400
        assert operator.post("/api/v1/plans", json=plan).status_code == 201
    plan["phases"][0]["rate"] = 1000
    assert stack.api.post("/api/v1/plans", json=plan).status_code == 201  # the admin has no cap here


def test_launch_is_refused_once_the_target_left_the_policy(stack, policy, dns_target):
    plan = stack.api.post("/api/v1/plans", json=ping_plan(dns_target["id"], "127.0.0.1") | {"monitors": []}).json()
    stack.api.put(POLICY, json={**policy_body(policy), "networks": ["::1/128"]})
    response = stack.api.post("/api/v1/campaigns", json={"plan_id": plan["id"]})
    assert response.status_code == 422 and names_policy(response)
    assert response.json()["detail"][0]["loc"] == ["body", "plan_id"]


def test_worker_refuses_a_point_whose_target_left_the_policy(stack, policy, dns_target):
    """Allowed at launch, removed while the first point runs: the second point fails before any tool starts."""
    plan = {"name": "recheck", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 2,
            "phases": [{"kind": "scalability", "concurrency": [1, 2], "unit_rate": 100, "duration_s": 2}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()
    deadline = time.monotonic() + 60
    while stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()[0]["status"] == "pending":
        assert time.monotonic() < deadline, "the first point never started"
        time.sleep(0.1)
    stack.api.put(POLICY, json={**policy_body(policy), "networks": ["::1/128"]})
    while stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["status"] not in {"completed", "failed", "cancelled", "crashed"}:
        assert time.monotonic() < deadline, "the campaign never ended"
        time.sleep(0.2)
    second = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()[1]
    evidence = stack.api.get(f"/api/v1/points/{second['id']}").json()
    assert second["status"] == "failed" and "target policy" in second["error"], second
    assert evidence["exit_code"] is None and evidence["stdout"] == "" and evidence["tool_version"] is None
