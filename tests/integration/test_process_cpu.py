"""The process monitor against servers whose CPU is known (issue 46 item 2): a UDP server burning a fixed CPU time per
query (burn_server.py), swept with dnsperf through the worker's MonitorSet, gives that cost per 1,000 queries; pinned
with taskset to one CPU (dnsperf to the other) it reads one usable CPU and, past its capacity, that CPU full; the host's
CPU splits into server, generator and other. Loopback only (no lab), under the lab lock: `flock /tmp/kb-lab.lock`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kneeboard.runs.monitors import MonitorSet
from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec

from tests.integration.test_host_events_lab import free_port

if shutil.which("dnsperf") is None or shutil.which("taskset") is None:
    pytest.skip("dnsperf and taskset are needed", allow_module_level=True)

SERVER = Path(__file__).with_name("burn_server.py")
BURN_MS = 4.0  # CPU per query by construction: 4.0 CPU-s per 1,000 queries
SECONDS = 4
# Measured on this shared 2-CPU host (4 runs × 3 rates, other engineers' tests beside): per-1,000 cost 3.889-4.021
# CPU-s against the 4.00 built in (−2.8 %…+0.5 %: the clock tick, 0.01 s of 1-3 CPU-s, and a window edge): 5 % holds
# it, and fails a monitor that loses a second of a 4 s point (25 %) or reads another process (the reader, pytest).
TOLERANCE = 0.05


def start_server(port: int, pin: str | None = None) -> subprocess.Popen:
    """The burn server on 127.0.0.1:port (pinned to CPU list `pin` with taskset), once it says it is ready."""
    argv = [sys.executable, str(SERVER), str(port), f"{BURN_MS:g}"]
    proc = subprocess.Popen(["taskset", "-c", pin, *argv] if pin else argv, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


@pytest.fixture
def server():
    procs: list[subprocess.Popen] = []

    def started(pin: str | None = None) -> tuple[int, subprocess.Popen]:
        port = free_port()
        procs.append(start_server(port, pin))
        return port, procs[-1]

    yield started
    for proc in procs:
        proc.kill()
        proc.wait()


def point(port: int, rate: int, workdir: Path, generator_pin: str | None = None) -> tuple[dict, dict]:
    """One point as the worker runs it: the process monitor beside dnsperf at `rate` q/s; (its summary, dnsperf's metrics)."""
    scraped = {"process": {"name": "kb-burn", "host": "127.0.0.1", "port": port}}
    spec = PointSpec(host="127.0.0.1", port=port, concurrency=1, rate=rate, duration_s=SECONDS,
                     params={"names": ["www.example.lab"], "timeout_s": 1, "latency_capture": False})
    argv = dnsperf.build(spec, workdir)
    with MonitorSet([{"kind": "process", "interval_s": 1}], SECONDS, workdir, scraped) as watchers:
        done = subprocess.run(["taskset", "-c", generator_pin, *argv] if generator_pin else argv, capture_output=True,
                              text=True, timeout=SECONDS + 20)
    result = dnsperf.parse(done.stdout, done.stderr, done.returncode)
    assert result.error is None, result.error
    assert not watchers.warnings, watchers.warnings
    return watchers.summaries["process"], result.metrics


@pytest.mark.parametrize("rate", [60, 120, 180])
def test_cpu_per_thousand_queries_is_the_cost_built_into_the_server(server, rate, tmp_path):
    port, proc = server()
    summary, metrics = point(port, rate, tmp_path)
    completed = metrics["completed"]
    per_1k = summary["cpu_s"] / completed * 1000
    print(f"\nfigures: {rate} q/s for {SECONDS} s: {completed:.0f} answered, server {summary['cpu_s']} CPU-s over "
          f"{summary['window_s']} s ({summary['cpu_pct_of_one']} % of one CPU) = {per_1k:.3f} CPU-s per 1,000 "
          f"(built: {BURN_MS:g}); host busy {summary['host_busy_cpu_s']} CPU-s of {summary['host_cpu_s']}")
    assert summary["process"] == "kb-burn" and summary["pids"] == [proc.pid], summary
    assert completed >= rate * SECONDS * 0.95, "dnsperf got its answers"
    assert per_1k == pytest.approx(BURN_MS, rel=TOLERANCE)
    assert summary["host_busy_cpu_s"] >= summary["cpu_s"], "the host's busy CPU holds the server's"
    assert summary["usable_cpus"] == 2 and summary["usable_source"].startswith("affinity mask"), summary


def test_a_server_pinned_to_one_cpu_has_one_usable_and_fills_it_past_its_capacity(server, tmp_path):
    port, proc = server(pin="0")
    capacity = 1000 / BURN_MS  # 250 q/s on one CPU
    summary, metrics = point(port, int(capacity * 1.6), tmp_path, generator_pin="1")
    other = summary["host_busy_cpu_s"] - summary["cpu_s"]
    print(f"\nfigures: pinned server offered {capacity * 1.6:.0f} q/s: {metrics['completed']:.0f} answered, "
          f"{summary['cpu_pct_of_one']} % of its {summary['usable_cpus']} usable CPU ({summary['usable_source']}); host "
          f"busy {summary['host_busy_cpu_s']} CPU-s, of which not the server {other:.2f}")
    assert summary["usable_cpus"] == 1 and summary["affinity"] == [0], summary
    assert summary["usable_source"] == "affinity mask (CPUs 0)"
    wanted = 100 * (summary["cpu_s"] + summary["runqueue_wait_s"]) / summary["window_s"]
    print(f"figures: running {summary['cpu_pct_of_one']} % + waiting for its CPU {100 * summary['runqueue_wait_s'] / summary['window_s']:.1f} % "
          f"of the window; answered {metrics['completed'] / SECONDS:.0f} q/s (capacity alone on its CPU: {capacity:.0f})")
    # Past its capacity the server always wants its one CPU: it runs or waits for it (others' work on CPU 0 — this
    # host is shared — took 4-24 % of it in the runs here, which its run-queue wait shows instead). Measured: 100.3,
    # 100.2, 94.8 % of the window; the window also holds dnsperf's 1 s wait for late answers, where the server idles
    # once its queue is drained, hence 90 %: a server below its capacity (test above: 24-73 %) fails it.
    assert wanted >= 90, "past its capacity the server runs or waits for its one CPU the whole window"
    assert summary["cpu_pct_of_one"] <= 101, "and never more than its one CPU"


def test_two_servers_of_one_name_are_told_apart_by_the_targets_port(server, tmp_path):
    port, proc = server()
    idle_port, idle = server()
    summary, metrics = point(port, 120, tmp_path)
    assert summary["pids"] == [proc.pid] and idle.pid not in summary["pids"], summary
    assert summary["cpu_s"] / metrics["completed"] * 1000 == pytest.approx(BURN_MS, rel=TOLERANCE)


def test_a_server_not_running_is_a_warning_and_the_point_keeps_the_rest(tmp_path):
    scraped = {"process": {"name": "kb-none", "host": "127.0.0.1", "port": free_port()}}
    with MonitorSet([{"kind": "process", "interval_s": 1}], 2, tmp_path, scraped) as watchers:
        subprocess.run(["sleep", "2"], check=True)
    summary = watchers.summaries["process"]
    assert watchers.warnings == ["monitor process: no process of that name ran on this host during the point: no server "
                                 "CPU for it"], watchers.warnings
    assert summary["pids"] == [] and summary["cpu_s"] == 0 and summary["host_busy_cpu_s"] is not None
    assert summary["window_s"] == pytest.approx(2, abs=0.5)
