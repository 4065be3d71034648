"""Fan-out for real: two `kneeboard agent` processes without database credentials, registered through
the API with an agent-role token, share one dnsperf point against the suite's unbound; killing one
mid-point fails its share and stops the other's load."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kneeboard.analysis import hdr
from kneeboard.stack import ROOT, stop
from tests.integration.test_campaign_run import wait_status
from tests.support.auth import login, make_user, origin


def agent_token(stack) -> str:
    """An API token of a fresh user with the agent role."""
    client = login(stack, *make_user(stack, "agent"))
    created = client.post("/api/v1/tokens", json={"name": "load-box"}, headers=origin(stack))
    assert created.status_code == 201, created.text
    return created.json()["token"]


def start_agent(stack, name: str, token: str) -> subprocess.Popen:
    """`kneeboard agent` as its own process; its environment has no DATABASE_URL, REDIS_URL or admin token."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "KB_ADMIN_TOKEN"}}
    env.update(KB_AGENT_TOKEN=token, PYTHONPATH=str(ROOT / "backend"))
    log = open(stack.tmp / f"agent-{name}.log", "ab")
    return subprocess.Popen([sys.executable, "-m", "kneeboard.cli", "agent", "--name", name, "--url", stack.api_url],
                            env=env, cwd=stack.tmp, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_agents(stack, names: set[str], timeout_s: float = 60) -> dict:
    """Until every named agent is registered as remote, alive, with its clock offset measured."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = {a["name"]: a for a in stack.api.get("/api/v1/agents").json() if a["name"] in names}
        if len(found) == len(names) and all(a["alive"] and a["facts"].get("clock_offset_ms") is not None for a in found.values()):
            time.sleep(2)  # the Celery worker starts consuming right after the first heartbeats
            return found
        time.sleep(0.3)
    raise AssertionError(f"agents {names} did not register within {timeout_s} s")


@pytest.fixture(scope="module")
def agents(stack):
    token = agent_token(stack)
    procs = {name: start_agent(stack, name, token) for name in ("a1", "a2")}
    try:
        yield wait_agents(stack, set(procs)), procs, token
    finally:
        for proc in procs.values():
            stop(proc)


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode(errors="replace").split("=", 1) for item in raw if b"=" in item)


def descendants(pid: int, comm: str) -> set[int]:
    """PIDs named `comm` below `pid` (read from /proc; nothing is killed here)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = (int(stat.rsplit(")", 1)[1].split()[1]), stat[stat.index("(") + 1 : stat.rindex(")")])
            except (OSError, ValueError, IndexError):
                continue
    found = set()
    for child, (_parent, name) in parents.items():
        up = child
        while up in parents and up != pid:
            up = parents[up][0]
        if up == pid and name == comm:
            found.add(child)
    return found


def fanned_plan(target_id: int, **overrides) -> dict:
    plan = {"name": "fanned", "tool": "dnsperf", "target_id": target_id, "agents": 2, "pause_s": 0,
            "params": {"names": ["www.example.lab", "h0001.example.lab"], "timeout_s": 2, "latency_capture": True},
            "phases": [{"kind": "baseline", "concurrency": 4, "rate": 1000, "duration_s": 4}]}
    plan.update(overrides)
    return plan


def run_plan(stack, body: dict, timeout_s: float = 90) -> tuple[dict, dict]:
    created = stack.api.post("/api/v1/plans", json=body)
    assert created.status_code == 201, created.text
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "cancelled", "crashed"}, timeout_s)
    first = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    return campaign, stack.api.get(f"/api/v1/points/{first['id']}").json()


def test_agents_register_through_the_api_without_database_credentials(stack, agents):
    found, procs, _token = agents
    for name, proc in procs.items():
        env = environ(proc.pid)
        assert "DATABASE_URL" not in env and "REDIS_URL" not in env, name
        facts = found[name]["facts"]
        assert facts["remote"] is True and facts["cpus"] == os.cpu_count() and abs(facts["clock_offset_ms"]) < 50
        assert found[name]["tools"].get("dnsperf"), "tool versions probed on the agent"
    refused = subprocess.run([sys.executable, "-m", "kneeboard.cli", "agent", "--name", "x", "--url", stack.api_url, "--token", "t"],
                             env={**os.environ, "DATABASE_URL": "postgresql://secret"}, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "must not hold database credentials" in refused.stderr
    viewer = login(stack, *make_user(stack, "viewer"))
    assert viewer.post("/api/v1/agents/register", json={"name": "v", "facts": {"hostname": "h", "cpus": 1}},
                       headers=origin(stack)).status_code == 403


def test_bad_agents_fields_are_refused_naming_agents(stack, dns_target, agents):
    for value, why in ((0, "greater than or equal"), (17, "less than or equal"), (["a1", "a1"], "twice"), (["nope"], "no remote agent named 'nope'")):
        answer = stack.api.post("/api/v1/plans", json=fanned_plan(dns_target["id"], agents=value))
        assert answer.status_code == 422, (value, answer.text)
        assert any("agents" in e["loc"] and why in e["msg"] for e in answer.json()["detail"]), answer.text
    plan_id = stack.api.post("/api/v1/plans", json=fanned_plan(dns_target["id"])).json()["id"]
    whole = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "a1"})
    assert whole.status_code == 422 and "remote agent" in whole.text and whole.json()["detail"][0]["loc"][-1] == "agent"
    small = fanned_plan(dns_target["id"], phases=[{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}])
    answer = stack.api.post("/api/v1/plans", json=small)
    assert answer.status_code == 422 and "cannot be split over 2 agents" in answer.text


def test_a_point_fanned_over_two_agents_merges_exactly(stack, dns_target, agents):
    campaign, point = run_plan(stack, fanned_plan(dns_target["id"]))
    assert campaign["status"] == "completed", point.get("error")
    extra, metrics = point["extra"], point["metrics"]
    shares = extra["shares"]
    assert sorted(s["agent"] for s in shares) == ["a1", "a2"] and all(s["error"] is None for s in shares)
    assert [s["offered_rate"] for s in shares] == [500.0, 500.0]
    print(f"\nfigures: start skew {extra['start_skew_ms']:.2f} ms; achieved {[round(s['achieved_rate']) for s in shares]} "
          f"= {metrics['achieved_rate']:.0f} qps; p50 {metrics['latency_p50_ms']} ms, p99 {metrics['latency_p99_ms']} ms")
    assert extra["start_skew_ms"] < 50
    assert metrics["achieved_rate"] == pytest.approx(sum(s["achieved_rate"] for s in shares))
    assert metrics["achieved_rate"] > 0.9 * 1000
    union = hdr.merge(s["hdr"] for s in shares)
    assert {k: metrics[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(union)
    assert union.get_total_count() == metrics["completed"]
    assert "===== agent a1 =====" in point["stdout"] and "===== agent a2 =====" in point["stdout"]
    samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
    assert {"point", "agent.a1", "agent.a2"} <= {s["series"] for s in samples}, "the summed series and each agent's are kept"


def kill_when_loading(victim: subprocess.Popen, loaders: list[subprocess.Popen], watched: list[subprocess.Popen]) -> tuple[float, float]:
    """Once every loader runs dnsperf (and a second more), kill -9 `victim`; returns (when, seconds until the
    dnsperf of every `watched` agent was gone, at most 20)."""
    deadline = time.monotonic() + 60
    while not all(descendants(p.pid, "dnsperf") for p in loaders):
        assert time.monotonic() < deadline, "the agents' dnsperf never ran"
        time.sleep(0.1)
    loads = set().union(*(descendants(p.pid, "dnsperf") for p in watched))
    time.sleep(1.0)
    killed = time.monotonic()
    os.kill(victim.pid, signal.SIGKILL)
    while any(Path(f"/proc/{pid}").exists() for pid in loads) and time.monotonic() - killed < 20:
        time.sleep(0.05)
    return killed, time.monotonic() - killed


def kill_one_mid_point(stack, body: dict, survivor: subprocess.Popen, victim: subprocess.Popen) -> None:
    """Launch a fanned 2-agent plan, kill -9 `victim` once both run dnsperf, and check the point fails
    clearly and `survivor`'s load stops long before the point's 30 s."""
    survivor_name, victim_name = body["agents"]
    plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    killed, gone_after = kill_when_loading(victim, [survivor, victim], watched=[survivor])
    print(f"\nfigures: the surviving agent's dnsperf stopped {gone_after:.2f} s after the other agent was killed")
    assert gone_after < 10, "the other agent's load was not stopped well before the point's 30 s"
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed"}, timeout_s=30)
    first = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    point = stack.api.get(f"/api/v1/points/{first['id']}").json()
    assert campaign["status"] == "failed" and point["status"] == "failed"
    assert f"agent {victim_name}" in point["error"] and "stopped answering" in point["error"]
    assert f"the load of {survivor_name} was stopped" in point["error"]
    shares = {s["agent"]: s for s in point["extra"]["shares"]}
    assert "stopped answering" in shares[victim_name]["error"] and shares[survivor_name]["error"].startswith("stopped")


def test_killing_one_agent_fails_its_share_and_stops_the_others_load(stack, dns_target, agents):
    _found, _procs, token = agents
    victims = {name: start_agent(stack, name, token) for name in ("k1", "k2")}
    try:
        wait_agents(stack, set(victims))
        body = fanned_plan(dns_target["id"], name="kill one", agents=["k1", "k2"],
                           phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 30}])
        kill_one_mid_point(stack, body, victims["k1"], victims["k2"])
    finally:
        for proc in victims.values():
            stop(proc)


def test_partial_policy_keeps_the_survivors_share_and_marks_the_campaign_partial(stack, dns_target, agents):
    _found, _procs, token = agents
    victims = {name: start_agent(stack, name, token) for name in ("p1", "p2")}
    try:
        wait_agents(stack, set(victims))
        body = fanned_plan(dns_target["id"], name="partial", agents=["p1", "p2"], on_agent_failure="partial",
                           phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 6}])
        plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
        campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
        deadline = time.monotonic() + 60
        while not descendants(victims["p2"].pid, "dnsperf"):
            assert time.monotonic() < deadline, "p2's dnsperf never ran"
            time.sleep(0.1)
        time.sleep(1.0)
        os.kill(victims["p2"].pid, signal.SIGKILL)
        campaign = wait_status(stack.api, campaign_id, {"completed", "failed"}, timeout_s=60)
        first = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
        point = stack.api.get(f"/api/v1/points/{first['id']}").json()
        assert campaign["status"] == "completed" and campaign["partial"] is True, campaign
        assert point["status"] == "completed" and point["error"] is None and point["extra"]["partial"] is True
        assert point["warnings"][0].startswith("partial point: 1 of 2 agents failed (p2)")
        shares = {s["agent"]: s for s in point["extra"]["shares"]}
        assert "stopped answering" in shares["p2"]["error"] and shares["p1"]["error"] is None, "the survivor ran to its end"
        assert point["metrics"]["achieved_rate"] == pytest.approx(shares["p1"]["achieved_rate"]) and 150 < shares["p1"]["achieved_rate"] < 250
    finally:
        for proc in victims.values():
            stop(proc)


def test_killing_the_conductor_stops_every_agents_load_and_crashes_the_campaign(stack, dns_target, agents):
    """kill -9 of the database-connected worker conducting a 60 s fanned point: the agents' dnsperf is gone within
    5 s (the run's lease lapses), and the reaper crashes the campaign within 30 s."""
    from tests.support import outages
    from tests.support.services import wait_for_agent

    _found, procs, _token = agents
    conductor = outages.agent(stack, "conductor")
    wait_for_agent(stack.api, "conductor")
    body = fanned_plan(dns_target["id"], name="conductor killed", agents=["a1", "a2"],
                       phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 60}])  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "conductor"}).json()["id"]
    killed, gone_after = kill_when_loading(conductor, list(procs.values()), watched=list(procs.values()))
    campaign = wait_status(stack.api, campaign_id, {"crashed", "failed", "completed"}, timeout_s=40)
    crashed_after = time.monotonic() - killed
    print(f"\nfigures: conductor killed: agents' dnsperf gone after {gone_after:.2f} s, campaign {campaign['status']} after {crashed_after:.1f} s")
    assert gone_after < 5, "an agent kept loading after its conductor died"
    assert campaign["status"] == "crashed" and crashed_after < 30


def test_a_fault_in_the_gather_ends_the_campaign_failed_and_stops_the_agents(stack, dns_target, agents):
    """An exception inside the conductor's gather loop (KB_INJECT_FAULTS=gather): the campaign is `failed` within
    30 s with the error shown, no agent's tool is left, no lease is held."""
    from sqlalchemy import select

    from kneeboard.campaigns.models import Campaign
    from kneeboard.db import session_scope
    from kneeboard.stack import start_worker
    from tests.support.services import wait_for_agent

    _found, procs, _token = agents
    worker = start_worker({**stack.env, "AGENT_NAME": "gather-fault", "KB_INJECT_FAULTS": "gather"}, stack.tmp / "agent-gather-fault")
    stack.started.append(worker)
    wait_for_agent(stack.api, "gather-fault")
    body = fanned_plan(dns_target["id"], name="gather fault", agents=["a1", "a2"],
                       phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 20}])  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
    launched = time.monotonic()
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id, "agent": "gather-fault"}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"failed", "crashed", "completed"}, timeout_s=30)
    assert campaign["status"] == "failed" and "injected fault at stage 'gather'" in campaign["error"], campaign
    assert time.monotonic() - launched < 30
    deadline = time.monotonic() + 10
    while any(descendants(p.pid, "dnsperf") for p in procs.values()):
        assert time.monotonic() < deadline, "an agent's dnsperf outlived the failed run"
        time.sleep(0.1)
    with session_scope() as session:
        assert session.scalar(select(Campaign.lease_expires_at).where(Campaign.id == campaign_id)) is None
