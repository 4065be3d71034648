"""The lab's CoreDNS configuration files and its variant action, without starting anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kneeboard.lab import actions, coredns, dns, namespace, processes
from kneeboard.targets.schemas import TargetCreate


def test_the_zone_file_holds_every_name_unbound_answers():
    zone = coredns.zone_file()
    assert "IN SOA ns.example.lab." in zone
    for name, address in dns.zone_records():
        assert f"\n{name}. IN A {address}\n" in zone
    assert len(dns.zone_records()) == 501


@pytest.mark.parametrize(("config", "logs"), [("minimal", False), ("log_discard", True), ("log_file", True)])
def test_each_configuration_serves_the_zone_from_its_file_with_prometheus(config, logs):
    text = coredns.corefile("10.77.0.2", Path("/lab/coredns"), config)
    assert text.startswith("example.lab:5300 {")
    assert "    bind 10.77.0.2\n" in text and "    file /lab/coredns/db.example.lab\n" in text
    assert "    prometheus 10.77.0.2:9153\n" in text and "    errors\n" in text
    assert ("    log\n" in text) is logs
    assert "forward" not in text


def test_the_action_takes_a_configuration_name_only():
    listed = next(a for a in actions.list_actions() if a["name"] == "lab.coredns_config")
    assert listed["type"] == "enum" and listed["choices"] == ["minimal", "log_discard", "log_file"]
    assert listed["default"] == "minimal"
    assert actions.validate_setting("lab.coredns_config", "log_file") == "log_file"
    for bad in ("verbose", 1, True, None):
        with pytest.raises(actions.ActionError, match="expected one of"):
            actions.validate_setting("lab.coredns_config", bad)
    assert actions.defaults(["lab.gro", "lab.coredns_config"]) == {"lab.coredns_config": "minimal"}


def test_the_running_configuration_is_read_from_the_process_argv():
    for conf, expected in (("/lab/coredns/Corefile.log_file", "log_file"), ("/elsewhere/Corefile", None)):
        child = "import time; print('up', flush=True); time.sleep(10)"  # a process whose argv has -conf CONF
        proc = subprocess.Popen([sys.executable, "-c", child, "-conf", conf], stdout=subprocess.PIPE)
        try:
            proc.stdout.readline()  # exec'd: /proc/PID/cmdline is its own
            assert coredns.running_config(proc.pid, processes.start_time(proc.pid)) == expected
        finally:
            proc.kill()
            proc.communicate()
    assert coredns.running_config(proc.pid, 1) is None  # gone


def test_lab_coredns_is_registered_with_its_exporters_and_configurations():
    body = TargetCreate(**next(t for t in namespace.targets() if t["name"] == "lab-coredns"))
    assert (body.kind, body.host, body.port) == ("dns", "10.77.0.2", 5300)
    assert [(e.name, str(e.url), e.packs) for e in body.exporters] == [
        ("coredns", "http://10.77.0.2:9153/metrics", ["coredns", "process", "go"]),
        ("node", "http://10.77.0.2:9100/metrics", ["node"]),
    ]
    assert all(f"{name}:" in body.notes for name in coredns.CONFIGS) and "not forwarding" in body.notes


def test_a_lab_without_a_built_coredns_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(coredns, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(coredns, "BINARY", tmp_path / "coredns")
    assert "run scripts/install-deps.sh" in coredns.missing_reason()
    (tmp_path / "build-error.txt").write_text("Go 1.24.1 is too old; CoreDNS v1.15.0 needs Go >= 1.26 (go.dev/doc/install)\n")
    spec = next(s for s in namespace._service_specs(tmp_path, None) if s["name"] == "lab-coredns")
    record = namespace._ensure_service(spec, None, tmp_path)
    assert record["pid"] is None and record["config"] == "minimal"
    assert record["error"] == "CoreDNS v1.15.0 not built: Go 1.24.1 is too old; CoreDNS v1.15.0 needs Go >= 1.26 (go.dev/doc/install)"
