"""The observer for real (issue 38): `kneeboard agent --observe` as its own process, holding only the API's URL and
an observer credential, profiles the suite's unbound at each point of a plan that names it, and reports the folded
stacks through the API. A process it does not see, or the observer killed mid-point, leaves the point measured with a
warning. Its credential is refused (403, audited) load work, launches and other observers' assignments. The admin here
is a user who logged in and made an API token, as a team's admin does."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time

import httpx
import pytest

from kneeboard.stack import stop
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_fanout import start_agent, wait_agents
from tests.support.roles import client_for

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or subprocess.run(["which", "perf"], capture_output=True).returncode,
                                reason="perf -a needs root and linux-perf")  # fmt: skip


@pytest.fixture(scope="module")
def admin(stack):
    with client_for(stack, "admin") as client:
        yield client


def credential(admin: httpx.Client, name: str, role: str = "observe") -> str:
    """A new agent credential of `role` bound to `name`, made by the admin (its secret shown once)."""
    created = admin.post("/api/v1/agent-credentials", json={"agent": name, "role": role})
    assert created.status_code == 201, created.text
    assert created.json()["role"] == role
    return created.json()["secret"]


def start_observer(stack, admin: httpx.Client, name: str) -> tuple[subprocess.Popen, str]:
    """`kneeboard agent --observe` as its own process (no database, no broker), registered and alive."""
    secret = credential(admin, name)
    proc = start_agent(stack, name, secret, None, "--observe")
    wait_agents(stack, {name})
    return proc, secret


@pytest.fixture(scope="module")
def observer(stack, admin):
    name = f"obs-{secrets.token_hex(3)}"
    proc, secret = start_observer(stack, admin, name)
    try:
        yield name, secret
    finally:
        stop(proc)


def profiled_plan(target_id: int, observer: str, process: str = "unbound", duration_s: float = 4, points: int = 2) -> dict:
    return {"name": f"observed {secrets.token_hex(3)}", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "timeout_s": 2},
            "phases": [{"kind": "scalability", "concurrency": [1, 2][:points], "unit_rate": 2000, "duration_s": duration_s}],
            "cpu_profile": {"process": process, "frequency_hz": 499, "observer": observer}}  # fmt: skip


def launch(admin: httpx.Client, plan: dict) -> int:
    created = admin.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    launched = admin.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]})
    assert launched.status_code in (200, 201, 202), launched.text
    return launched.json()["id"]


def finished(admin: httpx.Client, campaign_id: int) -> list[dict]:
    campaign = wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 120)
    assert campaign["status"] == "completed", campaign
    points = admin.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    return [admin.get(f"/api/v1/points/{p['id']}").json() for p in points]


def profile_warnings(point: dict) -> list[str]:
    return [w for w in point.get("warnings") or [] if w.startswith("CPU profile")]


def audited(admin: httpx.Client, actor: str) -> list[dict]:
    return admin.get("/api/v1/audit", params={"actor": actor, "limit": 100}).json()["items"]


def test_the_observer_profiles_each_point_and_reports_it(admin, dns_target, observer):
    name, _secret = observer
    points = finished(admin, launch(admin, profiled_plan(dns_target["id"], name)))
    assert len(points) == 2
    for point in points:
        assert point["status"] == "completed" and not profile_warnings(point), point.get("warnings")
        summary = point["extra"]["cpu_profile"]
        assert summary["observer"] == name and summary["process"] == "unbound"
        stored = admin.get(f"/api/v1/points/{point['id']}/cpu-profile")
        assert stored.status_code == 200, stored.text
        profile = stored.json()
        print(f"\nfigures: point {point['id']}: {profile['samples']} unbound samples of {profile['all_samples']} in "
              f"{profile['window_s']:.2f} s at 499 Hz ({profile['stacks']} stacks, {profile['stack_depth']}), folded on the "
              f"observer in {summary['fold_s']:.2f} s")
        assert profile["samples"] > 0 and profile["folded"] and 1.5 <= profile["window_s"] <= 2.2  # 4 s point: 1 s warm-up, 1 s margin
    actions = [(e["action"], e["kind"]) for e in audited(admin, f"observer:{name}")]
    assert actions.count(("observe", "observe_assignment")) == 2 and actions.count(("report", "observe_assignment")) == 2, actions


def test_a_process_the_observer_does_not_see_is_a_warning_not_a_failure(admin, dns_target, observer):
    name, _secret = observer
    (point,) = finished(admin, launch(admin, profiled_plan(dns_target["id"], name, process="kbnosuchproc", points=1)))
    assert point["status"] == "completed" and point["metrics"]["completed"] > 0
    warnings = profile_warnings(point)
    assert any(f"observer {name} saw no process named 'kbnosuchproc'" in w for w in warnings), warnings
    assert any("no sample of a process named 'kbnosuchproc'" in w and f"observer {name}'s host" in w for w in warnings), warnings
    assert admin.get(f"/api/v1/points/{point['id']}/cpu-profile").status_code == 409


def test_a_killed_observer_leaves_the_point_measured_with_a_warning(stack, admin, dns_target):
    name = f"obs-kill-{secrets.token_hex(3)}"
    proc, _secret = start_observer(stack, admin, name)
    try:
        campaign_id = launch(admin, profiled_plan(dns_target["id"], name, duration_s=6, points=1))
        deadline = time.monotonic() + 30
        while not any(e["action"] == "observe" for e in audited(admin, f"observer:{name}")):  # it acknowledged
            assert time.monotonic() < deadline, "the observer never acknowledged its assignment"
            time.sleep(0.2)
        time.sleep(2.5)  # into the steady window: perf records
        os.killpg(proc.pid, signal.SIGKILL)
        began = time.monotonic()
        (point,) = finished(admin, campaign_id)
        print(f"\nfigures: the killed observer's point was stored {time.monotonic() - began:.1f} s after the kill")
    finally:
        stop(proc)
    assert point["status"] == "completed" and point["metrics"]["completed"] > 0
    assert [w for w in profile_warnings(point) if f"observer {name} stopped answering during the point" in w], point.get("warnings")
    assert admin.get(f"/api/v1/points/{point['id']}/cpu-profile").status_code == 409


def test_an_observer_credential_is_refused_all_but_its_own_assignments_and_each_refusal_is_audited(stack, admin, dns_target, observer):
    name, _secret = observer
    theirs = next(e["obj_id"] for e in audited(admin, f"observer:{name}") if e["action"] == "observe")  # the first test's
    other = f"obs-other-{secrets.token_hex(3)}"
    client = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {credential(admin, other)}"}, timeout=20)
    facts = {"hostname": "h", "cpus": 1}
    assert client.post("/api/v1/agent/hello", json={"agent": other, "instance": "observer-one", "facts": facts}).status_code == 200
    plan = profiled_plan(dns_target["id"], other)
    refused = {
        "load work": client.get("/api/v1/agent/work", params={"instance": "observer-one", "wait_s": 0}),
        "a share": client.post("/api/v1/agent/shares/" + "0" * 32 + "/alive"),
        "a plan": client.post("/api/v1/plans", json=plan),
        "a launch": client.post("/api/v1/campaigns", json={"plan_id": 1}),
        "a read": client.get("/api/v1/campaigns"),
        "the policy": client.get("/api/v1/policy/targets"),
        "another's ack": client.post(f"/api/v1/agent/observe/assignments/{theirs}/ack", json={"process_seen": True}),
        "another's alive": client.post(f"/api/v1/agent/observe/assignments/{theirs}/alive"),
        "another's report": client.post(f"/api/v1/agent/observe/assignments/{theirs}/profile", json={"error": "x"}),
    }
    assert {what: r.status_code for what, r in refused.items()} == dict.fromkeys(refused, 403), {w: r.text for w, r in refused.items()}
    # its own poll is answered (nothing waits for it)
    assert client.get("/api/v1/agent/observe/work", params={"instance": "observer-one", "wait_s": 0}).status_code == 204
    rows = [e for e in audited(admin, f"observer:{other}") if e["action"] == "refused"]
    said = {(e["kind"], e["name"]) for e in rows}
    assert {("share", "/api/v1/agent/work"), ("share", f"/api/v1/agent/shares/{'0' * 32}/alive"), ("request", "POST /api/v1/plans"),
            ("request", "POST /api/v1/campaigns"), ("request", "GET /api/v1/campaigns"), ("request", "GET /api/v1/policy/targets"),
            ("observe_assignment", "ack"), ("observe_assignment", "alive"), ("observe_assignment", "report")} <= said, said
    assert all(e["obj_id"] == str(theirs) for e in rows if e["kind"] == "observe_assignment")
    # a load agent's credential reaches no observe assignment either; an observer's name is not a load agent's
    loader = f"load-{secrets.token_hex(3)}"
    load = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {credential(admin, loader, 'load')}"}, timeout=20)
    assert load.get("/api/v1/agent/observe/work", params={"instance": "loader-one", "wait_s": 0}).status_code == 403
    assert [e["kind"] for e in audited(admin, f"agent:{loader}") if e["action"] == "refused"] == ["observe_assignment"]
    mixed = admin.post("/api/v1/agent-credentials", json={"agent": other, "role": "load"})
    assert mixed.status_code == 422 and "observe credentials" in mixed.text, mixed.text


def test_a_credential_hammering_what_it_may_not_do_writes_a_few_audit_rows_and_counts_the_rest(stack, admin):
    import redis

    from kneeboard.audit.service import REFUSALS_PER_ACTOR

    name = f"obs-flood-{secrets.token_hex(3)}"
    client = httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {credential(admin, name)}"}, timeout=20)
    started = time.monotonic()
    assert {client.post("/api/v1/plans", json={}).status_code for _ in range(300)} == {403}
    assert {client.post(f"/api/v1/agent/observe/assignments/{10**6 + i}/alive").status_code for i in range(100)} == {403}
    took = time.monotonic() - started
    rows = [e for e in audited(admin, f"observer:{name}") if e["action"] == "refused"]
    print(f"\nfigures: 400 refused requests in {took:.1f} s wrote {len(rows)} audit rows")
    assert len(rows) == REFUSALS_PER_ACTOR and sum(e["name"] == "POST /api/v1/plans" for e in rows) == 1, [e["name"] for e in rows]
    broker = redis.Redis.from_url(stack.env["REDIS_URL"])  # the minute passes: its window and the actor's budget end
    broker.delete(f"kneeboard:audit:refused:observer:{name}:request:None:POST /api/v1/plans", f"kneeboard:audit:refused:observer:{name}")
    assert client.post("/api/v1/plans", json={}).status_code == 403
    newest = next(e for e in audited(admin, f"observer:{name}") if e["action"] == "refused")
    assert newest["name"] == "POST /api/v1/plans" and newest["details"]["repeated"] == 299 + 100 - (REFUSALS_PER_ACTOR - 1), newest
