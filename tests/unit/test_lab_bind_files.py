"""The lab's BIND configuration files, its variant action and the query logs emptied before a point, without starting a
DNS server (named-checkconf, Debian's own checker, reads the files where bind9 is installed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kneeboard.lab import actions, bind, coredns, namespace, querylogs
from kneeboard.targets.schemas import TargetCreate


@pytest.mark.parametrize(("config", "querylog"), [("minimal", False), ("querylog", True)])
def test_each_configuration_serves_the_zone_authoritatively_only(config, querylog):
    text = bind.named_conf("10.77.0.2", Path("/lab/bind"), config)
    assert "    listen-on port 5302 { 10.77.0.2; };\n" in text and "    recursion no;\n" in text
    assert 'zone "example.lab" { type primary; file "/lab/bind/db.example.lab"; };' in text
    assert "statistics-channels { inet 10.77.0.2 port 8053 allow { any; }; };" in text
    assert "controls { };" in text and "forward" not in text  # no rndc channel, nothing forwarded
    assert (f"    querylog {'yes' if querylog else 'no'};\n" in text) and ("/lab/bind/queries.log" in text) is querylog


def test_the_written_files_are_valid_for_named_and_hold_coredns_zone(tmp_path):
    bind.write_configs("10.77.0.2", tmp_path)
    assert (tmp_path / "db.example.lab").read_text() == coredns.zone_file()  # the same records, one writer
    checker = shutil.which("named-checkconf") or "/usr/bin/named-checkconf"
    if not os.access(checker, os.X_OK):
        pytest.skip("named-checkconf not installed (bind9-utils, installed with bind9 by scripts/install-deps.sh)")
    for config in bind.CONFIGS:
        done = subprocess.run([checker, "-z", str(tmp_path / f"named.conf.{config}")], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "zone example.lab/IN: loaded serial 1" in done.stdout


def test_the_action_takes_a_configuration_name_only():
    listed = next(a for a in actions.list_actions() if a["name"] == "lab.bind_config")
    assert listed["type"] == "enum" and listed["choices"] == ["minimal", "querylog"] and listed["default"] == "minimal"
    assert actions.validate_setting("lab.bind_config", "querylog") == "querylog"
    for bad in ("log_file", 1, None):
        with pytest.raises(actions.ActionError, match="expected one of minimal, querylog"):
            actions.validate_setting("lab.bind_config", bad)


def test_lab_bind_is_registered_with_its_configurations():
    body = TargetCreate(**next(t for t in namespace.targets() if t["name"] == "lab-bind"))
    assert (body.kind, body.host, body.port, body.tags) == ("dns", "10.77.0.2", 5302, ["lab"])
    assert all(f"{name}:" in body.notes for name in bind.CONFIGS) and "no recursion, no forwarding" in body.notes
    assert "lab.bind_config" in body.notes and "named" in namespace.SERVER_NAMES


def test_a_query_log_held_open_by_its_writer_is_emptied_in_place(tmp_path, monkeypatch):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"workdir": str(tmp_path), "services": {"lab-bind": {"port": 5302}}}))
    monkeypatch.setattr(namespace, "STATE_FILE", state)
    log = tmp_path / "bind" / "queries.log"
    log.parent.mkdir()
    writer = "import sys\nfor line in sys.stdin: sys.stdout.write(line); sys.stdout.flush()"  # a server's open log
    with open(log, "ab") as out:
        proc = subprocess.Popen([sys.executable, "-c", writer], stdin=subprocess.PIPE, stdout=out, text=True)
    try:
        proc.stdin.write("query 1\nquery 2\n")
        proc.stdin.flush()
        _wait_size(log, 16)
        assert querylogs.empty_before_point("10.77.0.2", 5302) == {"service": "lab-bind", "file": str(log), "bytes": 16}
        assert log.stat().st_size == 0
        proc.stdin.write("query 3\n")
        proc.stdin.flush()
        _wait_size(log, 8)
        assert log.read_text() == "query 3\n"  # the writer's next line is at the new end, not after a hole
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    assert querylogs.empty_before_point("10.77.0.2", 5300) is None  # not a lab server of the state file
    assert querylogs.empty_before_point("10.77.0.2", 853) is None  # CoreDNS's DoT port, but no CoreDNS in this lab
    assert querylogs.empty_before_point("192.0.2.1", 5302) is None  # not the lab
    log.unlink()
    assert querylogs.empty_before_point("10.77.0.2", 5302) is None  # no log on disk: its configuration does not log


def _wait_size(path: Path, size: int) -> None:
    deadline = time.monotonic() + 10
    while path.stat().st_size != size and time.monotonic() < deadline:
        time.sleep(0.01)
    assert path.stat().st_size == size


def test_a_dot_or_doh_point_empties_coredns_log_too(tmp_path, monkeypatch):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"workdir": str(tmp_path), "services": {coredns.SERVICE: {"port": coredns.PORT}}}))
    monkeypatch.setattr(namespace, "STATE_FILE", state)
    log = tmp_path / "coredns" / coredns.QUERY_LOG
    log.parent.mkdir()
    for port in (coredns.DOT_PORT, coredns.DOH_PORT, coredns.PORT):
        log.write_text("a query\n")
        assert querylogs.empty_before_point("10.77.0.2", port) == {"service": coredns.SERVICE, "file": str(log), "bytes": 8}
