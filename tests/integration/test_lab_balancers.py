"""The lab's load balancers (issues 36 and 39): real HAProxy 2.6, Caddy 2.6 and nginx in netns kblab over three real
nginx backends in namespaces of their own, each answering with `X-Backend: bN`. Round robin reaches all three evenly,
`balance source` / `ip_hash` keep one client on one backend, HAProxy's stats socket answers and is root's only, the
variant actions switch the configuration and read it back from the running server, `lab up` restarts a dead backend
and keeps the rest, and `lab down` leaves no backend namespace (root, haproxy and caddy needed)."""

from __future__ import annotations

import http.client
import os
import stat
import time
from collections import Counter

import pytest

from kneeboard.lab import actions, backends, balancers, caddy, haproxy, namespace, processes
from kneeboard.lab.router import LabState, lab_state
from kneeboard.lab.system import run, which

from tests.integration.conftest import skip_without_lab

skip_without_lab()
for _package in (haproxy.PACKAGE, caddy.PACKAGE):
    if which(_package) is None:
        pytest.skip(f"{_package} is not installed (scripts/install-deps.sh)", allow_module_level=True)

REQUESTS = 300
BALANCERS = {haproxy.SERVICE: haproxy.PORT, caddy.SERVICE: caddy.PORT, balancers.NGINX_SERVICE: balancers.NGINX_PORT}


def get(host: str, port: int) -> tuple[int, str | None, bytes]:
    """One GET / on a connection of its own: status, X-Backend, body."""
    conn = http.client.HTTPConnection(host, port, timeout=3)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        return response.status, response.getheader("X-Backend"), response.read()
    finally:
        conn.close()


def spread(port: int, requests: int = REQUESTS) -> Counter:
    """`requests` GETs through the balancer on the lab address; answers counted by X-Backend (non-200s as their status)."""
    counts: Counter = Counter()
    for _ in range(requests):
        status, backend, _ = get(namespace.LAB_ADDR, port)
        counts[backend if status == 200 else f"HTTP {status}"] += 1
    return counts


def services() -> dict[str, dict]:
    """The lab's service records as `GET /api/v1/lab` shows them (probed)."""
    return {s["name"]: s for s in namespace.status().services}


def test_up_runs_three_backends_in_namespaces_of_their_own_each_naming_itself(lab):
    now = services()
    for i in backends.indexes():
        record = now[backends.service(i)]
        assert record["running"] and record["host"] == backends.address(i) and record["pid"], record
        assert run(["ip", "netns", "identify", str(record["pid"])]).stdout.strip() == backends.netns(i)
        assert get(backends.address(i), backends.PORT) == (200, backends.name(i), f"{backends.name(i)}\n".encode())
    for name in BALANCERS:
        assert now[name]["running"] and now[name]["error"] is None, now[name]
        assert run(["ip", "netns", "identify", str(now[name]["pid"])]).stdout.strip() == namespace.NETNS
    assert now[haproxy.SERVICE]["config"] == "roundrobin" and now[caddy.SERVICE]["config"] == "round_robin"
    offered = {t["name"]: t for t in namespace.targets()}
    for name, port in BALANCERS.items():
        assert (offered[name]["kind"], offered[name]["host"], offered[name]["port"]) == ("http", namespace.LAB_ADDR, port)
    assert "inter 500 fall 2 rise 2" in offered[haproxy.SERVICE]["notes"]
    assert "passive checks only" in offered[balancers.NGINX_SERVICE]["notes"]
    shown = LabState(**lab_state())  # GET /api/v1/lab's body
    assert {backends.service(i) for i in backends.indexes()} | set(BALANCERS) <= {s["name"] for s in shown.services}
    choices = {a.name: (a.choices, a.default) for a in shown.actions}
    assert choices["lab.haproxy_config"] == (["roundrobin", "source", "redispatch"], "roundrobin")
    assert choices["lab.caddy_config"] == (["round_robin", "ip_hash"], "round_robin")


@pytest.mark.parametrize("name", list(BALANCERS))
def test_round_robin_gives_each_backend_a_third_of_300_requests(lab, name):
    counts = spread(BALANCERS[name])
    print(f"\nfigures: {name} round robin, {REQUESTS} requests, one connection each: {dict(sorted(counts.items()))}")
    assert set(counts) == {"b1", "b2", "b3"}, counts
    assert all(abs(n / REQUESTS - 1 / 3) <= 0.02 for n in counts.values()), counts  # 33 ± 2 %


def test_haproxy_stats_socket_answers_show_stat_and_is_root_only(lab):
    workdir, _ = lab
    socket_path = workdir / "haproxy" / haproxy.STATS_SOCKET
    mode = socket_path.stat()
    assert stat.S_ISSOCK(mode.st_mode) and stat.S_IMODE(mode.st_mode) == 0o600 and mode.st_uid == 0
    assert stat.S_IMODE((workdir / "haproxy").stat().st_mode) == 0o700
    before = {(r["pxname"], r["svname"]): r for r in haproxy.show_stat(workdir / "haproxy")}
    spread(haproxy.PORT, 30)
    after = {(r["pxname"], r["svname"]): r for r in haproxy.show_stat(workdir / "haproxy")}
    assert {after[("servers", backends.name(i))]["status"] for i in backends.indexes()} == {"UP"}
    assert after[("servers", "b1")]["check_status"] == "L7OK"
    answered = int(after[("lb", "FRONTEND")]["hrsp_2xx"]) - int(before[("lb", "FRONTEND")]["hrsp_2xx"])
    assert answered == 30, answered  # its own counters, through the socket
    if os.geteuid() == 0:  # nobody else may open it: as user nobody the connection is refused
        probe = run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "python3", "-c",
                     f"import socket; socket.socket(socket.AF_UNIX).connect({str(socket_path)!r})"], check=False)
        assert probe.returncode != 0 and "Permission denied" in probe.stderr, probe


def test_haproxy_configurations_are_a_variant_read_back_from_the_running_process(lab):
    workdir, _ = lab
    old_pid = namespace.service_record(haproxy.SERVICE)["pid"]
    try:
        assert actions.apply_setting("lab.haproxy_config", "source") == "source"
        record = namespace.service_record(haproxy.SERVICE)
        assert record["config"] == "source" and record["pid"] != old_pid
        counts = spread(haproxy.PORT, 60)
        assert len(counts) == 1 and next(iter(counts)) in {"b1", "b2", "b3"}, counts  # one client, one backend
        assert actions.apply_setting("lab.haproxy_config", "redispatch") == "redispatch"
        text = (workdir / "haproxy" / "haproxy.redispatch.cfg").read_text()
        assert "    option redispatch\n" in text and "    retries 2\n" in text
        assert set(spread(haproxy.PORT, 30)) == {"b1", "b2", "b3"}
    finally:
        assert actions.apply_setting("lab.haproxy_config", "roundrobin") == "roundrobin"
    assert actions.read_setting("lab.haproxy_config") == "roundrobin"
    assert "    no option redispatch\n" in (workdir / "haproxy" / "haproxy.roundrobin.cfg").read_text()


def test_caddy_ip_hash_is_a_variant_and_its_admin_api_is_not_on_tcp(lab):
    listening = run(["ip", "netns", "exec", namespace.NETNS, "ss", "-Hltnp"]).stdout
    caddy_ports = {line.split()[3].rsplit(":", 1)[1] for line in listening.splitlines() if '"caddy"' in line}
    assert caddy_ports == {str(caddy.PORT)}, listening  # no admin endpoint on :2019 or anywhere else
    try:
        assert actions.apply_setting("lab.caddy_config", "ip_hash") == "ip_hash"
        assert namespace.service_record(caddy.SERVICE)["config"] == "ip_hash"
        counts = spread(caddy.PORT, 60)
        assert len(counts) == 1 and next(iter(counts)) in {"b1", "b2", "b3"}, counts
    finally:
        assert actions.apply_setting("lab.caddy_config", "round_robin") == "round_robin"
    assert set(spread(caddy.PORT, 30)) == {"b1", "b2", "b3"}


def test_haproxy_takes_a_dead_backend_out_and_lab_up_restarts_only_it(lab):
    workdir, _ = lab
    before = {name: rec["pid"] for name, rec in services().items()}
    dead = namespace.service_record(backends.service(2))
    processes.stop(dead["pid"], dead["started"])
    stopped = time.monotonic()
    deadline = stopped + 3
    while time.monotonic() < deadline:  # fall 2 at inter 500: out within ~1 s
        rows = {r["svname"]: r["status"] for r in haproxy.show_stat(workdir / "haproxy") if r["pxname"] == "servers"}
        if rows["b2"].startswith("DOWN"):
            break
        time.sleep(0.1)
    assert rows["b2"].startswith("DOWN") and rows["b1"] == rows["b3"] == "UP", rows
    print(f"\nfigures: HAProxy marked b2 {rows['b2']} {time.monotonic() - stopped:.2f} s after its nginx was stopped "
          "(fall 2 at inter 500 ms)")
    assert set(spread(haproxy.PORT, 30)) == {"b1", "b3"}
    status = namespace.up(workdir)
    after = {s["name"]: s for s in status.services}
    assert after[backends.service(2)]["running"] and after[backends.service(2)]["pid"] != before[backends.service(2)]
    assert all(after[name]["pid"] == pid for name, pid in before.items() if name != backends.service(2))


def test_lab_down_leaves_no_backend_namespace_link_or_route(lab):
    pids = [rec["pid"] for name, rec in services().items() if name in balancers.SERVICES]
    namespace.down()
    listed = run(["ip", "netns", "list"]).stdout
    assert not [line for line in listed.splitlines() if line.startswith(backends.NETNS_PREFIX)], listed
    assert backends.SUBNET not in run(["ip", "route", "show"]).stdout
    assert not any(processes.is_alive(pid, None) for pid in pids)
