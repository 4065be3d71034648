"""Host events for real (issue 39): an observer (`kneeboard agent --observe --actions FILE`, its own process, holding
only the API's URL and an observer credential) runs a point's host.* events on its host, as its root-owned actions
file allows: HAProxy's runtime API (the lab's stats socket) and a service of its own (an nginx this test starts on
loopback, killed and started again by its pidfile and its configured command). What the file does not enable is a
warning on the point; what the events took out is put back when the load ends, and by a restarted observer after a
kill -9; an unsafe actions file stops the observer before it starts."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from kneeboard.lab import haproxy, namespace
from kneeboard.stack import stop
from tests.integration.conftest import skip_without_lab
from tests.integration.test_fanout import start_agent, wait_agents
from tests.integration.test_lab_campaigns import run, target
from tests.integration.test_live_point_events import read_stream
from tests.support.auth import login, make_user
from tests.support.roles import client_for

skip_without_lab()
NGINX = "/usr/sbin/nginx"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """An nginx of this test's own on loopback (pidfile, port): the service the observer may kill and start. One process
(no master): a killed master would leave its worker answering on the port."""
    folder, port = tmp_path_factory.mktemp("web"), free_port()
    (folder / "logs").mkdir()
    conf = folder / "nginx.conf"
    conf.write_text(f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nmaster_process off;\nevents {{}}\n"
                    f"http {{ access_log off; server {{ listen 127.0.0.1:{port}; location / {{ return 200 \"ok\\n\"; }} }} }}\n")
    argv = [NGINX, "-p", str(folder), "-c", str(conf)]
    subprocess.run(argv, check=True)
    try:
        yield {"port": port, "pidfile": folder / "nginx.pid", "start": argv}
    finally:
        pid = int((folder / "nginx.pid").read_text()) if (folder / "nginx.pid").exists() else None
        if pid and Path(f"/proc/{pid}/comm").exists() and Path(f"/proc/{pid}/comm").read_text().strip() == "nginx":
            os.kill(pid, signal.SIGTERM)


def actions_file(folder: Path, web: dict, text: str | None = None) -> Path:
    """A root-owned actions file enabling HAProxy's servers/b2 and servers/b3 and the test's nginx as `web`."""
    path = folder / "observer-actions.toml"
    start = ", ".join(f'"{a}"' for a in web["start"])
    path.write_text(text or f"max_in_force_s = 60\n[haproxy]\nsocket = \"{namespace.lab_workdir() / 'haproxy' / haproxy.STATS_SOCKET}\"\n"
                            'servers = ["servers/b2", "servers/b3"]\n'
                            f"[services.web]\npidfile = \"{web['pidfile']}\"\ncomm = \"nginx\"\nstart = [{start}]\n"
                            f"listen = \"127.0.0.1:{web['port']}\"\n"
                            f"[link]\ninterface = \"{namespace.HOST_IF}\"\nloss_permille_max = 100\n")
    os.chmod(folder, 0o755)
    os.chmod(path, 0o644)
    return path


def start_observer(stack, admin, name: str, path: Path):
    created = admin.post("/api/v1/agent-credentials", json={"agent": name, "role": "observe"})
    assert created.status_code == 201, created.text
    secret = created.json()["secret"]
    proc = start_agent(stack, name, secret, None, "--observe", "--actions", str(path))
    wait_agents(stack, {name})
    return proc, secret


@pytest.fixture(scope="module")
def admin(stack):
    with client_for(stack, "admin") as client:
        yield client


@pytest.fixture(scope="module")
def observer(stack, admin, web, tmp_path_factory):
    name, path = f"host-{secrets.token_hex(3)}", actions_file(tmp_path_factory.mktemp("etc"), web)
    proc, secret = start_observer(stack, admin, name, path)
    try:
        yield name, path, secret
    finally:
        stop(proc)


@pytest.fixture(autouse=True)
def servers_up_after():
    """Each test leaves b2 and b3 enabled, whatever it asserted: one failure does not become the next test's."""
    yield
    for server in ("servers/b2", "servers/b3"):
        haproxy.command(namespace.lab_workdir() / "haproxy", f"enable server {server}")


def servers_state() -> dict[str, str]:
    return {r["svname"]: r["status"] for r in haproxy.show_stat(namespace.lab_workdir() / "haproxy") if r["pxname"] == "servers"}


def kbhttp_plan(target_id: int, events: list[dict], duration_s: float, rate: int = 1000) -> dict:
    return {"name": f"host events {secrets.token_hex(3)}", "tool": "kbhttp", "target_id": target_id, "pause_s": 0,
            "params": {"count_header": "X-Backend", "timeout_s": 2},
            "phases": [{"kind": "stability", "concurrency": 20, "rate": rate, "duration_s": duration_s, "events": events}]}


def stored(stack, point: dict) -> dict:
    return stack.api.get(f"/api/v1/points/{point['id']}").json()


def test_haproxy_servers_through_the_observer_with_a_refusal_and_a_put_back(stack, lab, admin, observer):
    name = observer[0]
    events = [{"at_s": 2, "action": "host.haproxy_disable", "value": "servers/b2", "observer": name},
              {"at_s": 3, "action": "host.service_stop", "value": "postgres", "observer": name},
              {"at_s": 5, "action": "host.haproxy_enable", "value": "servers/b2", "observer": name},
              {"at_s": 6, "action": "host.haproxy_disable", "value": "servers/b3", "observer": name}]
    created = stack.api.post("/api/v1/plans", json=kbhttp_plan(target(stack, haproxy.SERVICE, "http", haproxy.PORT), events, 8))
    assert created.status_code == 201, created.text
    viewer = login(stack, *make_user(stack, "viewer"))
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    with viewer.stream("GET", f"/api/v1/campaigns/{campaign_id}/events", timeout=60) as answer:
        received = read_stream(answer.iter_lines())
    viewer.close()
    campaign = stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert campaign["status"] == "completed", [p["error"] for p in points]
    point = stored(stack, points[0])
    records = point["extra"]["events"]
    completed = next(i for i, (kind, data, _) in enumerate(received) if kind == "point" and data["status"] == "completed")
    told = [(i, data, at) for i, (kind, data, at) in enumerate(received) if kind == "point_event"]
    assert [(d["action"], "done" in d) for _, d, _ in told] == [(e["action"], done) for e in events for done in (False, True)], told
    assert all(i < completed and d["observer"] == name for i, d, _ in told), told
    assert all(at - d["t"] <= 0.5 for _, d, at in told[::2]), told  # told as it fired, not after the load
    assert [d["t"] for _, d, _ in told[1::2]] == [r["t"] for r in records]
    assert [(r["action"], r["value"], r["observer"]) for r in records] == [(e["action"], e["value"], name) for e in events]
    disabled, refused, enabled, left = records
    assert "error" not in disabled and "error" not in enabled and "error" not in left, records
    assert "not in this host's actions file" in refused["error"], refused
    assert abs((enabled["t"] - disabled["t"]) - 3.0) < 0.3 and abs((left["t"] - disabled["t"]) - 4.0) < 0.3, records
    warnings = point["warnings"]
    assert any(f"host.service_stop postgres at 3 s on observer {name} failed" in w for w in warnings), warnings
    assert any("host.haproxy_enable servers/b3 after the point" in w for w in warnings), warnings
    (put_back,) = point["extra"]["events_put_back"]
    assert put_back["action"] == "host.haproxy_enable" and put_back["value"] == "servers/b3" and "error" not in put_back
    assert servers_state()["b3"].startswith("UP") and servers_state()["b2"].startswith("UP"), servers_state()
    b2 = point["extra"]["failover"][0]
    print(f"\nfigures: through observer {name}: b2 disabled at {disabled['at_s']} s ({disabled['done'] - disabled['t']:.4f} s), "
          f"enabled {enabled['t'] - disabled['t']:.3f} s later; failed {b2['failed_by_class']}; spread {b2['spread']}")
    assert sum(b2["failed_by_class"].values()) == 0 and b2["spread"]["before"]["b2"]["share"] > 0.25, b2  # a disable drains: no failure
    audit = admin.get("/api/v1/audit", params={"actor": f"observer:{name}", "limit": 50}).json()["items"]
    told = {(e["action"], e["name"]) for e in audit if e["obj_id"] == str(campaign["id"])}
    assert {("event", f"point {point['id']}: host.haproxy_disable servers/b2"),
            ("put_back", f"point {point['id']}: host.haproxy_enable servers/b3")} <= told, told


def test_loss_on_the_observers_interface_drops_its_share_and_is_gone_after(stack, lab, observer):
    name = observer[0]
    events = [{"at_s": 1, "action": "host.loss_permille", "value": "50", "observer": name},
              {"at_s": 4, "action": "host.loss_permille", "value": "0", "observer": name},
              {"at_s": 4.5, "action": "host.loss_permille", "value": "500", "observer": name}]
    campaign, points = run(stack, kbhttp_plan(target(stack, haproxy.SERVICE, "http", haproxy.PORT), events, 5))
    assert campaign["status"] == "completed", [p["error"] for p in points]
    point = stored(stack, points[0])
    lossy, restored, refused = point["extra"]["events"]
    assert "error" not in lossy and "error" not in restored and "past this host's ceiling (100/1000)" in refused["error"]
    counted = restored["packets"]
    share = counted["dropped"] / counted["arrived"]
    print(f"\nfigures: 50/1000 loss on {namespace.HOST_IF} for 3 s through observer {name}: {counted['dropped']} of "
          f"{counted['arrived']} arriving packets dropped ({share:.2%}); p99 {point['metrics'].get('latency_p99_ms')} ms")
    assert 0.03 <= share <= 0.07 and counted["arrived"] > 1000, counted
    assert subprocess.run(["nft", "list", "table", "inet", "kneeboard_observer"], capture_output=True).returncode != 0


def test_a_service_killed_and_started_again_by_the_observer(stack, lab, observer, web):
    name = observer[0]
    body = {"name": f"web-{secrets.token_hex(3)}", "kind": "http", "host": "127.0.0.1", "port": web["port"], "tags": ["test"]}
    target_id = stack.api.post("/api/v1/targets", json=body).json()["id"]
    events = [{"at_s": 2, "action": "host.service_kill", "value": "web", "observer": name},
              {"at_s": 4, "action": "host.service_start", "value": "web", "observer": name}]
    plan = kbhttp_plan(target_id, events, 6, rate=500)
    plan["params"] = {"timeout_s": 2, "outcomes": True}
    campaign, points = run(stack, plan)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    point = stored(stack, points[0])
    killed, started = point["extra"]["events"]
    assert "error" not in killed and "error" not in started and started["listening"] >= started["t"], (killed, started)
    figures = point["extra"]["failover"][0]
    failed = sum(figures["failed_by_class"].values())
    print(f"\nfigures: web killed by observer at 2 s, started at 4 s (answering {started['listening'] - started['t']:.3f} s "
          f"later): failed {figures['failed_by_class']}, error window {figures['error_window']}, recovery {figures['recovery_s']} s")
    assert 500 <= failed <= 1300, figures  # ~2 s of 500 req/s refused while it was down
    assert figures["recovery_s"] is not None and figures["recovery_s"] < 0.5, figures


def test_a_killed_observer_puts_back_what_it_took_out_when_it_starts_again(stack, lab, admin, web, tmp_path):
    name, path = f"host-kill-{secrets.token_hex(3)}", actions_file(tmp_path, web)
    proc, secret = start_observer(stack, admin, name, path)
    events = [{"at_s": 1, "action": "host.haproxy_disable", "value": "servers/b2", "observer": name}]
    created = stack.api.post("/api/v1/plans", json=kbhttp_plan(target(stack, haproxy.SERVICE, "http", haproxy.PORT), events, 6, rate=300))
    assert created.status_code == 201, created.text
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    deadline = time.monotonic() + 30
    while not servers_state()["b2"].startswith("MAINT") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert servers_state()["b2"].startswith("MAINT"), servers_state()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    from tests.integration.test_campaign_run import wait_status

    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, 120)
    assert campaign["status"] == "completed"
    (point,) = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert any(f"observer {name}'s events took out is put back at its own deadline" in w for w in point["warnings"]), point["warnings"]
    assert servers_state()["b2"].startswith("MAINT")  # nobody put it back yet: the observer is dead
    again = start_agent(stack, name, secret, None, "--observe", "--actions", str(path))
    try:
        deadline = time.monotonic() + 30
        while not servers_state()["b2"].startswith("UP") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert servers_state()["b2"].startswith("UP"), servers_state()
        log = (stack.tmp / f"agent-{name}.log").read_text()
        assert "put back what a previous run left in force: host.haproxy_enable servers/b2 done" in log, log[-2000:]
    finally:
        stop(again)


def test_an_action_the_hosts_file_does_not_enable_is_a_warning(stack, lab, admin, web, tmp_path):
    name = f"host-few-{secrets.token_hex(3)}"
    path = actions_file(tmp_path, web, f'[link]\ninterface = "{namespace.HOST_IF}"\n')  # no services, no HAProxy
    proc, _secret = start_observer(stack, admin, name, path)
    try:
        events = [{"at_s": 1, "action": "host.haproxy_disable", "value": "servers/b2", "observer": name}]
        campaign, points = run(stack, kbhttp_plan(target(stack, haproxy.SERVICE, "http", haproxy.PORT), events, 3, rate=200))
    finally:
        stop(proc)
    assert campaign["status"] == "completed" and points[0]["metrics"]["completed"] > 0, points
    assert any("host.haproxy_disable is not enabled on this host" in w for w in points[0]["warnings"]), points[0]["warnings"]
    assert servers_state()["b2"].startswith("UP")


@pytest.mark.parametrize("mode, text, why", [
    (0o666, None, "must be owned by root and writable by root alone"),
    (0o644, "rm = true\n", "Extra inputs are not permitted"),
    (0o644, '[link]\ninterface = "eth0; reboot"\n', "String should match pattern"),
])  # fmt: skip
def test_an_unsafe_or_malformed_actions_file_stops_the_observer(stack, web, tmp_path, mode, text, why):
    path, name = actions_file(tmp_path, web, text), f"bad-{secrets.token_hex(3)}"
    os.chmod(path, mode)
    proc = start_agent(stack, name, "kb_agent_unused", None, "--observe", "--actions", str(path))
    assert proc.wait(30) == 2
    log = (stack.tmp / f"agent-{name}.log").read_text()
    assert "--actions:" in log and why in log, log


def test_host_events_are_refused_where_they_cannot_run(stack, dns_target, observer):
    name = observer[0]
    plan = {"name": "host events refused", "tool": "dnsperf", "target_id": dns_target["id"],
            "phases": [{"kind": "stability", "concurrency": 1, "rate": 100, "duration_s": 2, "events": []}]}  # fmt: skip
    for event, field, why in (
        ({"at_s": 1, "action": "host.haproxy_disable", "value": "servers/b2"}, "events", "runs on an observer: name it"),
        ({"at_s": 1, "action": "lab.backend_stop", "value": "b2", "observer": name}, "events", "only host.* actions name an observer"),
        ({"at_s": 1, "action": "host.haproxy_disable", "value": "servers/b2", "observer": "nobody"}, "observer", "no observer credential"),
        ({"at_s": 1, "action": "host.loss_permille", "value": "2000", "observer": name}, "events", "not a whole number 0-1000"),
        ({"at_s": 1, "action": "host.service_start", "value": "web;reboot", "observer": name}, "events", "is not a name"),
        ({"at_s": 1, "action": "lab.backend_stop", "value": "b2"}, "action", "acts on the lab's servers"),
    ):  # fmt: skip
        answer = stack.api.post("/api/v1/plans", json={**plan, "phases": [{**plan["phases"][0], "events": [event]}]})
        assert answer.status_code == 422 and why in answer.text, answer.text
        assert field in str(answer.json()["detail"][0]["loc"]), answer.json()


def test_an_observer_cannot_report_or_tell_an_event_its_assignment_did_not_give(stack, observer, dns_target):
    """The worker's side stands in here (an acknowledged assignment written as assign() writes it); the API's refusal
    is what is checked."""
    from kneeboard.db import session_scope
    from kneeboard.models import import_all
    from kneeboard.observers.models import ObserveAssignment

    import_all()  # every table, for the assignment's foreign key

    name, _path, secret = observer
    campaign, (point,) = run(stack, {"name": "a point to hang an assignment on", "tool": "dnsperf", "target_id": dns_target["id"],
                                     "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}]})
    given = {"at_s": 1.0, "action": "host.haproxy_disable", "value": "servers/b2"}
    with session_scope() as session:
        row = ObserveAssignment(observer=name, campaign_id=campaign["id"], point_id=point["id"], attempt=1, events=[given],
                                start_at=time.time(), since=time.time(), until=time.time() + 5, status="acknowledged")
        session.add(row)
        session.flush()
        assignment = row.id
    base, headers = f"/api/v1/agent/observe/assignments/{assignment}", {"Authorization": f"Bearer {secret}"}
    forged = {**given, "value": "servers/b3", "t": time.time()}
    for path, body in (("event", forged), ("profile", {"events": [forged]})):
        answer = stack.api.post(f"{base}/{path}", json=body, headers=headers)
        assert answer.status_code == 409 and "gave no event host.haproxy_disable servers/b3" in answer.text, answer.text
    assert stack.api.post(f"{base}/event", json={**given, "t": time.time()}, headers=headers).status_code == 202
    bogus = stack.api.post(f"{base}/profile", json={"events": [{**given, "action": "lab.backend_kill", "t": 1}]}, headers=headers)
    assert bogus.status_code == 422 and "is not a host action" in bogus.text, bogus.text
