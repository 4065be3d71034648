"""The lab's load balancers' configurations (HAProxy, Caddy, nginx) and backends, their targets, service specs and
variant actions, without starting anything; where the server is installed, it checks the rendered file itself."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kneeboard.lab import actions, backends, balancers, caddy, haproxy, namespace

LAB = "10.77.0.2"
SERVERS = ["10.78.1.2:80", "10.78.2.2:80", "10.78.3.2:80"]


def test_backends_each_answer_with_their_name_in_a_header_and_the_body(tmp_path):
    text = backends.nginx_config(2, tmp_path)
    assert "    listen 10.78.2.2:80;\n" in text and "worker_processes 1;" in text and "access_log off;" in text
    assert '    location / { add_header X-Backend b2 always; return 200 "b2\\n"; }\n' in text
    assert f"pid {tmp_path / 'nginx.pid'};" in text and "daemon off;" in text
    assert [(backends.netns(i), backends.lab_if(i), backends.gateway(i)) for i in backends.indexes()] == [
        ("kbb1", "kbl1", "10.78.1.1"), ("kbb2", "kbl2", "10.78.2.1"), ("kbb3", "kbl3", "10.78.3.1")]


@pytest.mark.parametrize(("config", "balance", "retries", "redispatch"), [
    ("roundrobin", "roundrobin", 0, "    no option redispatch\n"),
    ("source", "source", 0, "    no option redispatch\n"),
    ("redispatch", "roundrobin", 2, "    option redispatch\n"),
])  # fmt: skip
def test_haproxy_configurations(tmp_path, config, balance, retries, redispatch):
    text = haproxy.config_text(LAB, tmp_path, config)
    assert f"    bind {LAB}:8080\n" in text and f"    balance {balance}\n" in text
    assert f"    retries {retries}\n" in text and redispatch in text
    assert f"    stats socket {tmp_path / 'stats.sock'} mode 600 level admin\n" in text
    assert f"    description kneeboard-config-{config}\n" in text  # what running_config reads back
    assert "    option httpchk GET /\n" in text
    servers = [line.split()[1:] for line in text.splitlines() if line.startswith("    server ")]
    assert servers == [[f"b{i}", SERVERS[i - 1], "check", "inter", "500", "fall", "2", "rise", "2"] for i in (1, 2, 3)]


@pytest.mark.skipif(shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists(), reason="haproxy not installed")
def test_haproxy_accepts_every_configuration(tmp_path):
    haproxy.write_configs(LAB, tmp_path)
    assert tmp_path.stat().st_mode & 0o777 == 0o700
    for config in haproxy.CONFIGS:
        done = subprocess.run([shutil.which("haproxy") or "/usr/sbin/haproxy", "-c", "-f", str(tmp_path / f"haproxy.{config}.cfg")],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("config", list(caddy.CONFIGS))
def test_caddy_configurations(tmp_path, config):
    conf = caddy.config(LAB, tmp_path, config)
    assert conf["admin"]["listen"] == f"unix/{tmp_path / 'admin.sock'}"  # no TCP admin endpoint
    server = conf["apps"]["http"]["servers"]["lb"]
    assert server["listen"] == [f"{LAB}:8081"] and server["automatic_https"] == {"disable": True}
    proxy = server["routes"][0]["handle"][0]
    assert [u["dial"] for u in proxy["upstreams"]] == SERVERS
    assert proxy["load_balancing"]["selection_policy"] == {"policy": config}
    assert proxy["health_checks"]["active"]["interval"] == "500ms"
    assert "try_duration" not in proxy["load_balancing"]  # no retries: failures reach the client


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy not installed")
def test_caddy_accepts_every_configuration(tmp_path):
    caddy.write_configs(LAB, tmp_path)
    for config in caddy.CONFIGS:
        path = tmp_path / f"caddy.{config}.json"
        assert json.loads(path.read_text()) == caddy.config(LAB, tmp_path, config)
        done = subprocess.run(["caddy", "validate", "--config", str(path)], capture_output=True, text=True, timeout=30,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr


def test_nginx_balancer_round_robins_over_the_backends_with_passive_checks_only(tmp_path):
    text = balancers.nginx_lb_config(LAB, tmp_path)
    assert f"    listen {LAB}:8082;\n" in text and "    zone servers 64k;\n" in text and "    keepalive 64;\n" in text
    assert [line.split()[1] for line in text.splitlines() if line.startswith("    server ")] == SERVERS
    assert "      proxy_pass http://servers;\n" in text and "health_check" not in text
    assert "proxy_temp_path" in text


def test_the_balancers_are_lab_targets_stating_their_configuration():
    offered = {t["name"]: t for t in namespace.targets()}
    for name, port in ((haproxy.SERVICE, 8080), (caddy.SERVICE, 8081), (balancers.NGINX_SERVICE, 8082)):
        assert (offered[name]["kind"], offered[name]["host"], offered[name]["port"], offered[name]["tags"]) == (
            "http", LAB, port, ["lab"])
        assert "X-Backend" in offered[name]["notes"]
    assert "lab.haproxy_config" in offered[haproxy.SERVICE]["notes"] and "retries 2" in offered[haproxy.SERVICE]["notes"]
    assert "lab.caddy_config" in offered[caddy.SERVICE]["notes"] and "ip_hash" in offered[caddy.SERVICE]["notes"]
    assert "passive checks only" in offered[balancers.NGINX_SERVICE]["notes"]


@pytest.mark.parametrize(("name", "server"), [("lab.haproxy_config", haproxy), ("lab.caddy_config", caddy)])
def test_the_variant_actions_take_a_configuration_name_only(name, server):
    listed = next(a for a in actions.list_actions() if a["name"] == name)
    assert listed["type"] == "enum" and listed["choices"] == list(server.CONFIGS) and listed["default"] == server.DEFAULT
    for bad in ("leastconn", 1, None):
        with pytest.raises(actions.ActionError, match="expected one of"):
            actions.validate_setting(name, bad)


def test_a_missing_balancer_is_reported_on_its_record_and_nothing_starts(monkeypatch, tmp_path):
    monkeypatch.setattr(balancers, "which", lambda tool: None)
    specs = {s["name"]: s for s in balancers.service_specs()}
    assert [name for name, s in specs.items() if s["binary"] is None] == list(balancers.SERVICES)
    monkeypatch.setattr(namespace, "_start", lambda spec, workdir: pytest.fail("nothing may start without its binary"))
    record = namespace._ensure_service(specs[haproxy.SERVICE], None, tmp_path)
    assert record["pid"] is None and record["error"] == "haproxy not installed (scripts/install-deps.sh installs Debian's)"
    assert record["config"] == "roundrobin"
    backend = namespace._ensure_service(specs["lab-backend-b2"], None, tmp_path)
    assert backend["host"] == "10.78.2.2" and backend["error"] == "lab-backend-b2: server not installed"
