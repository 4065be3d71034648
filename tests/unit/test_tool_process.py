"""The process monitor's adapter: its summary from the reader's real output (captured on this host from
tests/integration/burn_server.py at ~4 ms a query, stopped by SIGINT), a reload's new workers and exited ones, a process
not found, and the argv it builds for lab, loopback and remote targets. The reader's /proc readings are checked against
a real child process here; its figures against known CPU in tests/integration/test_process_cpu*.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.process import adapter, read

CAPTURED = (Path(__file__).parents[1] / "fixtures" / "process" / "kb-burn.jsonl").read_text()


def spec(documents: dict | None = None, **params) -> PointSpec:
    return PointSpec(host="127.0.0.1", port=0, concurrency=1, rate=None, duration_s=8, params=params, documents=documents or {})


def line(t: float, boot: float, procs: list, busy: float, total: float) -> str:
    return json.dumps({"t": t, "boot_s": boot, "process": "nginx", "procs": procs, "host": {"busy_s": busy, "total_s": total, "cpus": 2}})


def test_the_captured_run_gives_cpu_seconds_window_and_usable_cpus():
    result = adapter.parse(CAPTURED, "", 0)
    first, last = (json.loads(x) for x in (CAPTURED.splitlines()[0], CAPTURED.splitlines()[-1]))
    s = result.extra
    assert result.error is None and s["process"] == "kb-burn" and s["pids"] == [first["procs"][0][0]]
    assert s["cpu_s"] == pytest.approx(last["procs"][0][2] - first["procs"][0][2])  # 0.66 - 0.01
    assert s["window_s"] == pytest.approx(last["t"] - first["t"], abs=1e-3)
    assert s["cpu_pct_of_one"] == pytest.approx(100 * s["cpu_s"] / s["window_s"], abs=0.01)
    assert s["host_busy_cpu_s"] == pytest.approx(last["host"]["busy_s"] - first["host"]["busy_s"])
    assert s["runqueue_wait_s"] == pytest.approx(last["procs"][0][3] - first["procs"][0][3], abs=1e-3)
    assert (s["usable_cpus"], s["usable_source"], s["readings"], s["exited"]) == (2, "affinity mask (CPUs 0,1)", 4, 0)
    assert [x.series for x in result.samples] == ["process"] * 3 and "warnings" not in s
    assert sum(x.values["cpu_pct"] * dt for x, dt in zip(result.samples, [1.0, 1.0, 0.4944])) / 100 == pytest.approx(s["cpu_s"], abs=0.01)


def test_a_reloads_new_worker_counts_from_zero_and_an_exited_one_until_its_last_reading():
    text = "\n".join([
        line(100.0, 50.0, [[10, 1.0, 5.0, 0], [11, 1.0, 2.0, 0]], 10.0, 20.0),
        line(101.0, 51.0, [[10, 1.0, 5.5, 0], [11, 1.0, 2.4, 0], [12, 50.5, 0.1, 0]], 11.0, 22.0),  # 12 started in between
        line(102.0, 52.0, [[10, 1.0, 5.6, 0], [12, 50.5, 0.6, 0], [13, 2.0, 9.0, 0]], 12.5, 24.0),  # 11 gone; 13 old, unseen
    ])
    s = adapter.parse(text, "", 0).extra
    assert s["cpu_s"] == pytest.approx(0.5 + 0.4 + 0.1 + 0.1 + 0.5)  # 13's base is unknown: nothing for it yet
    assert s["pids"] == [10, 11, 12, 13] and s["exited"] == 1 and s["host_busy_cpu_s"] == pytest.approx(2.5)
    assert "1 process(es) of that name ended during the point (PIDs 11)" in s["warnings"][0]


def test_a_pid_reused_by_another_process_is_not_subtracted_from_the_old_one():
    text = "\n".join([line(100.0, 50.0, [[10, 1.0, 5.0, 0]], 10, 20), line(101.0, 51.0, [[10, 50.9, 0.2, 0]], 11, 22)])
    assert adapter.parse(text, "", 0).extra["cpu_s"] == pytest.approx(0.2)


def test_no_process_of_the_name_is_a_warning_with_the_hosts_figures_kept():
    text = "\n".join([line(100.0, 50.0, [], 10, 20), line(102.0, 52.0, [], 11.5, 24)])
    result = adapter.parse(text, "", 0)
    assert result.error is None and result.extra["cpu_s"] == 0 and result.extra["host_busy_cpu_s"] == 1.5
    assert result.extra["warnings"] == ["no process of that name ran on this host during the point: no server CPU for it"]


def test_fewer_than_two_readings_is_an_error():
    assert "1 reading(s), CPU needs two" in adapter.parse(CAPTURED.splitlines()[0] + "\n{\"t\": 1, \"pro", "", 0).error
    assert "process monitor: bad" in adapter.parse("", "process monitor: bad\nusage: ...", 2).error


def test_argv_for_lab_loopback_and_remote_targets():
    lab = adapter.build(spec({"process": {"name": "coredns", "host": "10.77.0.2", "port": 5300}}), Path("."))
    assert lab == [sys.executable, "-m", "kneeboard.tools.process.read", "coredns", "1", "8", "--netns", "/run/netns/kblab",
                   "--port", "5300"]
    local = adapter.build(spec({"process": {"name": "unbound", "host": "127.0.0.1", "port": 53}}, process="named"), Path("."))
    assert local[3] == "named" and local[-4:] == ["--netns", "/proc/self/ns/net", "--port", "53"]
    with pytest.raises(ToolInputError, match="not on this host"):
        adapter.build(spec({"process": {"name": "nginx", "host": "192.0.2.7", "port": 80}}), Path("."))
    with pytest.raises(ToolInputError, match="names no server process"):
        adapter.build(spec({"process": {"name": None, "host": "127.0.0.1", "port": 80}}), Path("."))
    with pytest.raises(ToolInputError, match="process"):
        adapter.build(spec(process="a name with spaces"), Path("."))


def test_the_reader_reads_a_real_process_cpu_gomaxprocs_and_affinity():
    child = subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
                              "while time.process_time() < end: pass\ntime.sleep(30)"],
                             env={**os.environ, "GOMAXPROCS": "3"})
    try:
        deadline = time.monotonic() + 15  # until it has burned its 0.3 s (CPU 0 is shared with others' tests)
        while read.proc_stat(child.pid)[2] < 0.3 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.1)
        comm, _, cpu_s, parent = read.proc_stat(child.pid)
        assert parent == os.getpid() and 0.3 <= cpu_s < 0.6  # its burn and the interpreter's start
        limits = read.usable([child.pid])
        assert (limits["affinity"], limits["gomaxprocs"], limits["cpus"]) == ([0], 3, 1)
        assert limits["source"] == "affinity mask (CPUs 0)"
        assert [p[0] for p in read.scan(comm, read.netns_id("/proc/self/ns/net"))].count(child.pid) == 1
        assert read.scan(comm, None, port=1) == []  # it holds no socket on port 1
    finally:
        child.kill()
        child.wait()


def test_the_reader_refuses_bad_arguments():
    for argv in (["x" * 16, "1", "5"], ["nginx", "0", "5"], ["nginx", "1", "5", "--port", "0"], ["nginx", "1", "5", "--x", "1"],
                 ["nginx", "1", "5", "--netns", "/nonexistent"]):
        with pytest.raises(ValueError):
            read.read_args(argv)
    job, interval_s, duration_s = read.read_args(["nginx", "1", "5", "--port", "80"])
    assert (job.name, job.port, job.netns, interval_s, duration_s) == ("nginx", 80, None, 1.0, 5.0)


NAMED = ("import ctypes, socket, sys, time\nctypes.CDLL(None).prctl(15, b'kb-reader-46', 0, 0, 0)\n"  # PR_SET_NAME
         "if sys.argv[1] == 'serve':\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n    s.bind(('127.0.0.1', 0))\n"
         "    print(s.getsockname()[1], flush=True)\n    time.sleep(30)\n")


def test_a_zombie_of_the_name_hides_no_server_on_the_port():
    """Issue 46: a restarted server's old process left a zombie (its parent, the one that started the lab, had not reaped
    it); the zombie, first by PID, passed as in the namespace and its unreadable socket tables stood for the
    namespace's, so the new server on the port was not found. A zombie is no process of the name; the new one is."""
    zombie = subprocess.Popen([sys.executable, "-c", NAMED, "exit"])
    deadline = time.monotonic() + 10
    while (read.proc_stat(zombie.pid) or ("",))[0] != "" and time.monotonic() < deadline:
        time.sleep(0.02)  # until it has ended (kept as a zombie: not waited for)
    server = subprocess.Popen([sys.executable, "-c", NAMED, "serve"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        with open(f"/proc/{zombie.pid}/stat") as stat:
            assert stat.read().split(")")[1].split()[0] == "Z" and zombie.pid < server.pid  # the case: it comes first
        here = read.netns_id("/proc/self/ns/net")
        assert [p[0] for p in read.scan("kb-reader-46", here, port)] == [server.pid]
        assert [p[0] for p in read.scan("kb-reader-46", here)] == [server.pid]
    finally:
        server.kill()
        server.wait()
        zombie.wait()
