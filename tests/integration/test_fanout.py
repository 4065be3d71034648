"""Fan-out for real: two `kneeboard agent` processes that hold only the API's URL and an agent credential
(no broker, no database) share one dnsperf point against the suite's unbound; killing one mid-point fails
its share and stops the other's load; killing the conductor stops them all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import redis

from kneeboard.analysis import hdr
from kneeboard.stack import ROOT, stop
from tests.integration.test_campaign_run import wait_status
from tests.support.auth import login, make_user, origin

pytestmark = pytest.mark.lab  # in the lab's lane, away from the loopback lane's own sweeps: beside the loopback lane's sweeps its agents took their shares late (twice in four runs)


def agent_credential(stack, name: str) -> str:
    """A new agent credential bound to `name`, made by the admin (shown once)."""
    created = stack.api.post("/api/v1/agent-credentials", json={"agent": name})
    assert created.status_code == 201, created.text
    return created.json()["secret"]


def start_agent(stack, name: str, credential: str | None = None, url: str | None = None, *flags: str) -> subprocess.Popen:
    """`kneeboard agent` as its own process, with the API's URL and its credential: no DATABASE_URL, REDIS_URL or
    admin token in its environment."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "KB_ADMIN_TOKEN"}}
    env.update(KB_AGENT_TOKEN=credential or agent_credential(stack, name), PYTHONPATH=str(ROOT / "backend"))
    log = open(stack.tmp / f"agent-{name}.log", "ab")
    return subprocess.Popen([sys.executable, "-m", "kneeboard.cli", "agent", "--name", name, "--url", url or stack.api_url, *flags],
                            env=env, cwd=stack.tmp, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_agents(stack, names: set[str], timeout_s: float = 60) -> dict:
    """Until every named agent is registered as remote, alive, with its clock offset measured."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = {a["name"]: a for a in stack.api.get("/api/v1/agents").json() if a["name"] in names}
        if len(found) == len(names) and all(a["alive"] and a["facts"].get("clock_offset_ms") is not None for a in found.values()):
            return found
        time.sleep(0.3)
    raise AssertionError(f"agents {names} did not register within {timeout_s} s")


@pytest.fixture(scope="module")
def agents(stack):
    credentials = {name: agent_credential(stack, name) for name in ("a1", "a2")}
    procs = {name: start_agent(stack, name, credential) for name, credential in credentials.items()}
    try:
        yield wait_agents(stack, set(procs)), procs, credentials
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


def broker_secrets(stack) -> list[str]:
    """What no agent may ever see of the broker: its URL, its password and its port."""
    url = urlsplit(stack.env["REDIS_URL"])
    assert url.password, "the suite's Redis has a password, as `make up`'s does"
    return [stack.env["REDIS_URL"], url.password, f":{url.port}", "redis://"]


def test_agents_hold_only_the_api_url_and_a_credential(stack, agents):
    found, procs, credentials = agents
    hidden = broker_secrets(stack)
    for name, proc in procs.items():
        env, argv = environ(proc.pid), Path(f"/proc/{proc.pid}/cmdline").read_bytes().decode()
        assert "DATABASE_URL" not in env and "REDIS_URL" not in env, name
        assert not [h for h in hidden if h in argv or any(h in v for v in env.values())], f"{name} was given the broker"
        facts = found[name]["facts"]
        assert facts["remote"] is True and facts["cpus"] == os.cpu_count() and abs(facts["clock_offset_ms"]) < 50
        assert found[name]["tools"].get("dnsperf"), "tool versions probed on the agent"
    # every answer an agent gets: its hello (here a second process's, refused while a1 lives), beats, work, policy
    a1 = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {credentials['a1']}"}, timeout=40)
    facts = {"hostname": "h", "cpus": 1}
    answers = [a1.post("/api/v1/agent/hello", json={"agent": "a1", "instance": "second-process", "facts": facts}),
               a1.post("/api/v1/agent/heartbeat", json={"instance": "second-process"}),
               a1.get("/api/v1/agent/work", params={"instance": "second-process", "wait_s": 0}),
               a1.get("/api/v1/policy/targets"), a1.post("/api/v1/agent/shares/" + "0" * 32 + "/alive")]
    assert [a.status_code for a in answers] == [409, 409, 409, 200, 403], [a.text for a in answers]
    assert "live in another process" in answers[0].json()["detail"]
    assert not [h for h in hidden for a in answers if h in a.text] and "broker_url" not in stack.api.get("/openapi.json").text
    logs = "".join((stack.tmp / f"agent-{name}.log").read_text() for name in procs)
    assert not [h for h in hidden if h in logs], "an agent's log shows the broker"
    # the credential is good for its agent's link and the policy, nothing else
    assert [a1.get(path).status_code for path in ("/api/v1/campaigns", "/api/v1/agents", "/api/v1/targets")] == [403, 403, 403]
    assert a1.post("/api/v1/agent/hello", json={"agent": "a2", "instance": "second-process", "facts": facts}).status_code == 403
    assert stack.api.post("/api/v1/agent/hello", json={"agent": "a1", "instance": "admin-process", "facts": facts}).status_code == 403
    refused = subprocess.run([sys.executable, "-m", "kneeboard.cli", "agent", "--name", "x", "--url", stack.api_url, "--token", "t"],
                             env={**os.environ, "DATABASE_URL": "postgresql://secret"}, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "must not hold database or broker credentials" in refused.stderr
    clear = subprocess.run([sys.executable, "-m", "kneeboard.cli", "agent", "--name", "x", "--url", "http://192.0.2.7:8000", "--token", "t"],
                           env={k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}, capture_output=True, text=True, timeout=60)
    assert clear.returncode == 2 and "plain http to another machine" in clear.stderr
    viewer = login(stack, *make_user(stack, "viewer"))
    assert viewer.post("/api/v1/agent-credentials", json={"agent": "v"}, headers=origin(stack)).status_code == 403


def test_an_agent_reaches_an_https_api_with_its_ca_bundle_and_not_without(stack, tmp_path):
    from kneeboard.stack import start_api

    key, cert = tmp_path / "api.key", tmp_path / "api.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1",
                    "-subj", "/CN=kneeboard-test", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)  # fmt: skip
    api, url = start_api(stack.env, tmp_path, log="api-tls.log", tls=(key, cert))
    credential = agent_credential(stack, "tls1")
    try:
        untrusting = start_agent(stack, "tls1", credential, url)
        assert untrusting.wait(timeout=60) == 1
        assert "CERTIFICATE_VERIFY_FAILED" in (stack.tmp / "agent-tls1.log").read_text()
        trusting = start_agent(stack, "tls1", credential, url, "--ca-bundle", str(cert))
        try:
            assert url.startswith("https://") and wait_agents(stack, {"tls1"})["tls1"]["alive"]
        finally:
            stop(trusting)
    finally:
        stop(api)


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


def fanned_run(stack, point_id: int) -> str:
    """The run id the conductor gave the point's shares (read from the server's Redis, which agents never see)."""
    broker = redis.Redis.from_url(stack.env["REDIS_URL"])
    try:
        for key in broker.scan_iter("kneeboard:fanout:*:assignment"):
            if json.loads(broker.get(key))["point_id"] == point_id:
                return key.decode().split(":")[2]
    finally:
        broker.close()
    raise AssertionError(f"no fanned run of point {point_id}")


def test_shares_go_only_to_agents_waiting_for_work_and_a_silent_one_is_named(stack, agents, monkeypatch):
    """An idle agent keeps a work poll open in the API (its `polling` mark); the conductor sends shares only once
    every agent has one, and names the one that never asks."""
    from kneeboard.runs import fanout_driver as driver
    from kneeboard.fanout.keys import polling

    broker = redis.Redis.from_url(stack.env["REDIS_URL"])
    try:
        deadline = time.monotonic() + 10
        while not (broker.exists(polling("a1")) and broker.exists(polling("a2"))) and time.monotonic() < deadline:
            time.sleep(0.1)
        driver._wait_polling(broker, ["a1", "a2"], lambda: False)  # returns: both wait for work
        monkeypatch.setattr(driver, "READY_TIMEOUT_S", 0.5)
        with pytest.raises(driver.FanoutError, match="agent ghost alive but not asking for work within 0.5 s"):
            driver._wait_polling(broker, ["a1", "ghost"], lambda: False)
        with pytest.raises(driver.FanoutError, match="cancelled"):
            driver._wait_polling(broker, ["ghost"], lambda: True)
    finally:
        broker.close()


def test_an_agent_is_heard_only_on_its_own_shares_of_the_current_attempt(stack, dns_target, agents):
    """Another agent's credential gets 403 on a1/a2's run; a1's own outcome once the run is over, or for a point
    no longer in that attempt, gets 409; nothing changes and each refusal is audited."""
    _found, _procs, credentials = agents
    _campaign, point = run_plan(stack, fanned_plan(dns_target["id"], name="assignment"))
    run = fanned_run(stack, point["id"])
    outsider = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {agent_credential(stack, 'a3')}"})
    a1 = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {credentials['a1']}"})
    forged = {"metrics": {"achieved_rate": 1e6, "completed": 1}, "started_at": time.time()}
    broker = redis.Redis.from_url(stack.env["REDIS_URL"])
    results_before = broker.llen(f"kneeboard:fanout:{run}:results")
    assert outsider.post(f"/api/v1/agent/shares/{run}/outcome", json=forged).status_code == 403
    assert outsider.post(f"/api/v1/agent/shares/{run}/alive").status_code == 403
    over = a1.post(f"/api/v1/agent/shares/{run}/outcome", json=forged)
    assert over.status_code == 409 and "is over" in over.text
    broker.delete(f"kneeboard:fanout:{run}:closed", f"kneeboard:fanout:{run}:reported:a1")  # as if the conductor never closed it
    stale = a1.post(f"/api/v1/agent/shares/{run}/outcome", json=forged)
    assert stale.status_code == 409 and "not the current attempt" in stale.text
    assert broker.llen(f"kneeboard:fanout:{run}:results") == results_before and not broker.exists(f"kneeboard:fanout:{run}:reported:a1")
    assert stack.api.get(f"/api/v1/points/{point['id']}").json()["metrics"] == point["metrics"], "nothing changed"
    refusals = stack.api.get("/api/v1/audit", params={"kind": "share", "limit": 50}).json()["items"]
    assert {e["actor"] for e in refusals if e["action"] == "refused" and e["obj_id"] == run} == {"agent:a3", "agent:a1"}
    reports = {e["actor"] for e in refusals if e["action"] == "report" and e["obj_id"] == run}
    assert reports == {"agent:a1", "agent:a2"}, "each accepted outcome is audited"
    revoked = [c for c in stack.api.get("/api/v1/agent-credentials").json() if c["agent"] == "a3"][0]
    assert stack.api.delete(f"/api/v1/agent-credentials/{revoked['id']}").status_code == 204
    assert outsider.post(f"/api/v1/agent/shares/{run}/alive").status_code == 401
    broker.close()


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
    victims = {name: start_agent(stack, name) for name in ("k1", "k2")}
    try:
        wait_agents(stack, set(victims))
        body = fanned_plan(dns_target["id"], name="kill one", agents=["k1", "k2"],
                           phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 30}])
        kill_one_mid_point(stack, body, victims["k1"], victims["k2"])
    finally:
        for proc in victims.values():
            stop(proc)


def test_partial_policy_keeps_the_survivors_share_and_marks_the_campaign_partial(stack, dns_target, agents):
    victims = {name: start_agent(stack, name) for name in ("p1", "p2")}
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
