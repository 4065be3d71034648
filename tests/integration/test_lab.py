"""The real lab: namespace kblab, veth kbh0<->kbl0, unbound/nginx/iperf3 inside (root + iproute2 needed).

One module-scoped lab, brought up once and torn down at the end: the tests run in file order.
Note: this replaces a lab that is already up (e.g. from `make up`) and leaves none behind.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest

from kneeboard.lab import actions, dns, namespace, processes
from kneeboard.lab.system import cpu_count

from tests.integration.conftest import skip_without_lab

skip_without_lab()



def test_up_reports_services_running(lab):
    _, status = lab
    assert status.present and status.reason is None
    assert status.queues == cpu_count()
    by_kind = {s["kind"]: s for s in status.services}
    assert {"dns", "http", "net"} <= set(by_kind)
    for kind in ("dns", "http", "net"):
        assert by_kind[kind]["running"], by_kind[kind]
        assert by_kind[kind]["host"] == "10.77.0.2" and by_kind[kind]["pid"]


def test_dns_answers_from_host(lab):
    query = dns._query_packet("www.example.lab")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        sock.sendto(query, ("10.77.0.2", 53))
        answer = sock.recv(512)
    assert answer[:2] == query[:2]
    assert answer[3] & 0x0F == 0  # rcode NOERROR
    assert int.from_bytes(answer[6:8], "big") == 1  # one answer record
    assert answer.endswith(bytes([192, 0, 2, 10]))


def test_http_index_is_590_bytes(lab):
    with urllib.request.urlopen("http://10.77.0.2:80/index.html", timeout=3) as resp:
        assert resp.status == 200
        assert len(resp.read()) == 590


def test_iperf3_server_answers(lab):
    assert processes.tcp_answers("10.77.0.2", 5201)


def _ethtool_rx(dev_argv):
    out = subprocess.run(dev_argv, capture_output=True, text=True, check=True).stdout
    return out.split("Current hardware settings:")[1].split("RX:")[1].split()[0]


def test_veth_queues_read_back(lab):
    sizes = [1] + ([min(4, cpu_count())] if cpu_count() > 1 else [])
    for n in sizes:
        assert actions.apply_setting("lab.veth_queues", n) == n
        assert _ethtool_rx(["ethtool", "-l", "kbh0"]) == str(n)
        assert _ethtool_rx(["ip", "netns", "exec", "kblab", "ethtool", "-l", "kbl0"]) == str(n)


def test_gro_on_off_read_back(lab):
    for on in (True, False):
        assert actions.apply_setting("lab.gro", on) is on
        out = subprocess.run(["ip", "netns", "exec", "kblab", "ethtool", "-k", "kbl0"], capture_output=True, text=True).stdout
        assert f"generic-receive-offload: {'on' if on else 'off'}" in out
        assert f"rx-udp-gro-forwarding: {'on' if on else 'off'}" in out


def test_rps_and_threaded_read_back(lab):
    assert actions.apply_setting("lab.rps", True) is True
    assert actions.apply_setting("lab.threaded_napi", True) is True  # works with GRO off too
    assert actions.read_setting("lab.gro") is False
    assert actions.apply_setting("lab.rps", False) is False
    assert actions.apply_setting("lab.threaded_napi", False) is False


def test_unknown_action_refused(lab):
    with pytest.raises(actions.ActionError):
        actions.apply_setting("lab.nope", 1)
    with pytest.raises(actions.ActionError):
        actions.apply_setting("lab.veth_queues", cpu_count() + 1)


def test_up_again_is_idempotent(lab):
    workdir, first = lab
    again = namespace.up(workdir)
    assert [(s["name"], s["pid"]) for s in again.services] == [(s["name"], s["pid"]) for s in first.services]
    assert all(s["running"] for s in again.services)
    ns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert sum(1 for line in ns.splitlines() if line.split()[0] == "kblab") == 1


def test_down_leaves_nothing(lab):
    workdir, status = lab
    pids = [s["pid"] for s in status.services]
    namespace.down()
    assert subprocess.run(["ip", "link", "show", "kbh0"], capture_output=True).returncode != 0
    assert "kblab" not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}"), f"pid {pid} still exists"
    assert not workdir.exists()  # configs, site and logs written by up() are gone too
    after = namespace.status()
    assert not after.present and "not set up" in after.reason
    namespace.down()  # twice is fine
