"""scripts/check-commands.py (issue 48): the external commands of the code and the tests, found by a scan and by the
runner's record of a run, checked against the packages scripts/install-deps.sh installs; real dpkg, real install-deps."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import pytest

from kneeboard.tools import runner

from tests.conftest import ROOT

spec = importlib.util.spec_from_file_location("check_commands", ROOT / "scripts" / "check-commands.py")
check_commands = sys.modules.setdefault("check_commands", importlib.util.module_from_spec(spec))
spec.loader.exec_module(check_commands)
needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="the check reads dpkg's database (Debian)")
INSTALL_DEPS = (ROOT / "scripts" / "install-deps.sh").read_text()

SOURCE = '''
import shutil, subprocess
from kneeboard.tools import runner
def record_argv(data):
    return ["perf", "record", "-o", str(data)]
def go(ns, tool):
    subprocess.run(["ip", "netns", "exec", ns, "ping", "-c", "1"])
    runner.run(["nice", "-n", "19", "dnsperf", "-s", "x"], timeout_s=1)
    runner.run([tool, "-x"], timeout_s=1)
    names = ["minimal", "log_file"]
    return shutil.which("docker-compose") or shutil.which("docker")
'''


def test_the_scan_reads_argv_literals_wrappers_argv_functions_and_which():
    found = {(name, line, required) for name, line, required in check_commands.static_commands(SOURCE)}
    assert found == {("perf", 5, True), ("ip", 7, True), ("ping", 7, True), ("nice", 8, True), ("dnsperf", 8, True),
                     ("docker-compose", 11, True), ("docker", 11, False)}  # fmt: skip


def test_the_repos_scan_finds_the_commands_issue_48_named():
    found = check_commands.scan()
    assert {"perf", "iptables", "stress-ng", "dnsperf", "nft", "tc", "unbound"} <= set(found)
    assert "backend/kneeboard/profiling/perf.py" in " ".join(found["perf"].where) and found["perf"].mode == "test"
    assert found["tcpdump"].mode == "bench"  # only tests/bench starts it: the bench mode installs it


@needs_dpkg
@pytest.mark.parametrize(("package", "command"), [("iptables", "iptables"), ("linux-perf", "perf")])
def test_the_check_fails_when_a_package_leaves_the_install_step(package, command):
    found = check_commands.scan()
    debian = check_commands.Debian.read()
    assert f" {package} " in INSTALL_DEPS
    without = INSTALL_DEPS.replace(f" {package} ", " ")
    problems = check_commands.check(found, without, debian)
    assert [p for p in problems if p.startswith(f"{command} (")], problems
    assert not [p for p in check_commands.check(found, INSTALL_DEPS, debian) if p.startswith(f"{command} (")]


@needs_dpkg
def test_the_runner_records_what_it_starts_and_the_check_reads_the_record(tmp_path, monkeypatch):
    record = tmp_path / "commands"
    monkeypatch.setenv(runner.RECORD_ENV, str(record))
    runner.run([sys.executable, "-c", "pass"], timeout_s=30)
    runner.run(["nice", "-n", "5", "true"], timeout_s=30)
    runner.run(["kb-no-such-command"], timeout_s=30)  # a test's missing tool: recorded, and left out by its name
    assert record.read_text().splitlines() == [sys.executable, "nice", "true", "kb-no-such-command"]
    assert check_commands.check(check_commands.recorded(record), INSTALL_DEPS) == []
    with record.open("a") as more:
        more.write("kbnotacommand\n")  # as if a test had started a command no package gives
    problems = check_commands.check(check_commands.recorded(record), INSTALL_DEPS)
    assert len(problems) == 1 and problems[0].startswith("kbnotacommand (recorded in"), problems
