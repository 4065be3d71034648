"""Issue 34: the environment facts that say whether the generator shares the server's host (and the scheduler's
autogroup setting), the note a report shows from them, and the harness CPU counters, on this machine's real /proc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kneeboard import environment
from kneeboard.config import get_settings
from kneeboard.runs import harness_cpu


def _global_address() -> str | None:
    """One of this host's own non-loopback addresses, if it has one."""
    if shutil.which("ip") is None:
        return None
    shown = subprocess.run(["ip", "-j", "addr"], capture_output=True, text=True, check=False)
    for link in json.loads(shown.stdout or "[]"):
        for info in link.get("addr_info", []):
            if info.get("scope") == "global" and info.get("family") == "inet":
                return info["local"]
    return None


def test_the_autogroup_setting_is_the_kernels_own():
    facts = environment.collect_facts()
    wanted = Path(environment.AUTOGROUP).read_text().strip() if Path(environment.AUTOGROUP).exists() else "unavailable"
    assert facts["kernel.sched_autogroup_enabled"] == wanted
    assert "generator.shares_host" not in facts, "only said when the target is known"


def test_whether_the_generator_shares_the_host():
    assert environment.collect_facts(target_host="127.0.0.1")["generator.shares_host"] == "yes (loopback)"
    assert environment.generator_shares_host("localhost") == environment.generator_shares_host("::1") == "yes (loopback)"
    assert environment.generator_shares_host("10.77.0.2", lab_address="10.77.0.2") == "yes (lab namespace on this host)"
    assert environment.generator_shares_host("198.51.100.7") == "no", "TEST-NET-2: never an address of this host"
    assert environment.generator_shares_host("no-such-host.invalid") == "unavailable (cannot resolve no-such-host.invalid)"
    own = _global_address()
    if own:
        assert environment.generator_shares_host(own) == "yes (an address of this host)"


def test_the_note_a_report_shows():
    shared = {"generator.shares_host": "yes (lab namespace on this host)", "kernel.sched_autogroup_enabled": "1"}
    assert environment.host_sharing(shared) == {
        "shares_host": "yes (lab namespace on this host)", "sched_autogroup_enabled": "1",
        "note": "the load generator shares this host with the server (lab namespace on this host); kernel.sched_autogroup_enabled=1: "
                "near saturation the latency depends on how the scheduler groups the two",
    }  # fmt: skip
    assert environment.host_sharing({**shared, "generator.shares_host": "no"}) is None
    assert environment.host_sharing({"generator.shares_host": "unavailable (cannot resolve x)"}) is None
    assert environment.host_sharing({}) is None, "a campaign from before the fact"
    assert "kernel.sched_autogroup_enabled=unavailable" in environment.host_sharing({"generator.shares_host": "yes (loopback)"})["note"]


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    """WORKDIR at a fresh folder, for the API's pid files."""
    monkeypatch.setenv("WORKDIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def test_api_processes_are_found_by_their_pid_files(workdir):
    burner = subprocess.Popen([sys.executable, "-c", "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass"])
    try:
        registry = workdir / "harness"
        registry.mkdir()
        boot = Path(harness_cpu.BOOT_ID).read_text().strip()
        entry = {"pid": burner.pid, "started": harness_cpu.start_time(burner.pid), "boot_id": boot}
        (registry / f"api-{burner.pid}.json").write_text(json.dumps(entry))
        (registry / "api-1.json").write_text(json.dumps({**entry, "pid": 1, "started": 1}))  # PID 1 is not the process recorded
        (registry / "api-2.json").write_text(json.dumps({**entry, "boot_id": "another-host"}))
        assert harness_cpu.api_pids() == [burner.pid]
        assert not (registry / "api-1.json").exists(), "a stale file is removed"
        assert (registry / "api-2.json").exists(), "another host's file is left alone"

        meter = harness_cpu.Meter()
        end = time.process_time() + 0.3
        while time.process_time() < end:  # the worker's own CPU (a busy machine stretches the wall time, not this)
            pass
        used = meter.used()
        assert 0.3 <= used["worker_s"] < 0.5 and used["api_processes"] == 1
        assert 0.05 <= used["api_s"] <= used["wall_s"] + 0.05, "the busy 'API' burned CPU, at most the wall time"
    finally:
        burner.kill()
        burner.wait()


def test_this_process_registers_itself(workdir):
    path = harness_cpu.register_api()
    assert path == workdir / "harness" / f"api-{os.getpid()}.json"
    assert harness_cpu.api_pids() == [os.getpid()]
    assert harness_cpu.process_cpu_s(os.getpid()) > 0


def test_redis_elsewhere_is_not_counted(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://198.51.100.7:6379/0")
    get_settings.cache_clear()
    harness_cpu._redis.cache_clear()
    try:
        assert harness_cpu.redis_cpu_s() is None, "not on this host: not asked (and not waited for)"
    finally:
        get_settings.cache_clear()
        harness_cpu._redis.cache_clear()
