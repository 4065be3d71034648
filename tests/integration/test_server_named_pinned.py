"""The server process named as the bottleneck only when it is at its usable CPUs, on a shared host: CoreDNS as
shipped pinned to CPU 0 with taskset (Go then sizes GOMAXPROCS to its one CPU), the worker and so dnsperf pinned to
CPU 1, a sweep past CoreDNS's capacity. The report names the server process at its one usable CPU where it saturates
(at ≥ 95 % of it, or, on a host full with others' work, waiting for it), not at the lowest load, splits the host's CPUs (server, load generator, other, idle) on every point, and the process
monitor's CPU-seconds agree with this test's own reading of /proc/PID/stat over the campaign."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid

import pytest

from kneeboard.lab import coredns
from kneeboard.lab.processes import wait_tcp
from kneeboard.stack import free_port
from tests.integration.test_lab_campaigns import run

if coredns.binary() is None:
    pytest.skip(coredns.missing_reason(), allow_module_level=True)
if os.cpu_count() is None or os.cpu_count() < 2:
    pytest.skip("needs two CPUs: one for the server, one for the load generator", allow_module_level=True)

HZ = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """utime + stime of a process, read by this test from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def pin_threads(pid: int, cpus: set[int]) -> dict[int, set[int]]:
    """Set every thread of a process to `cpus`; their affinity before."""
    before = {}
    for tid in map(int, os.listdir(f"/proc/{pid}/task")):
        try:
            before[tid] = os.sched_getaffinity(tid)
            os.sched_setaffinity(tid, cpus)
        except OSError:
            continue
    return before


@pytest.fixture()
def pinned(stack, tmp_path):
    """CoreDNS on CPU 0 (no GOMAXPROCS set), the worker on CPU 1; both put back (CoreDNS ended by its PID)."""
    worker = next(p for p in reversed(stack.started) if "kneeboard.worker.celery_app" in " ".join(map(str, p.args)) and p.poll() is None)
    port, metrics = free_port(), free_port()
    (tmp_path / "Corefile").write_text(f"example.lab:{port} {{\n    bind 127.0.0.1\n    hosts {{\n        127.0.0.10 www.example.lab\n"
                                       f"    }}\n    prometheus 127.0.0.1:{metrics}\n    errors\n}}\n")
    env = {k: v for k, v in os.environ.items() if k != "GOMAXPROCS"}
    server = subprocess.Popen(["taskset", "-c", "0", coredns.binary(), "-conf", str(tmp_path / "Corefile")], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    before = pin_threads(worker.pid, {1})
    try:
        wait_tcp("127.0.0.1", metrics, server, timeout_s=20)
        yield server.pid, port, f"http://127.0.0.1:{metrics}/metrics"
    finally:
        for tid, cpus in before.items():
            try:
                os.sched_setaffinity(tid, cpus)
            except OSError:
                pass
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


def test_the_pinned_server_is_named_at_its_one_cpu(stack, pinned):
    pid, port, metrics_url = pinned
    target = stack.api.post("/api/v1/targets", json={
        "name": f"coredns-pinned-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": port, "process": "coredns",
        "exporters": [{"name": "coredns", "url": metrics_url, "packs": ["coredns", "process"]}]})
    assert target.status_code == 201, target.text
    plan = {"name": "pinned server", "tool": "dnsperf", "target_id": target.json()["id"], "pause_s": 0,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 1},
            "phases": [{"kind": "saturation", "concurrency": 10, "rate": [2_000, 10_000, 40_000, 80_000, 120_000], "duration_s": 4}],
            "monitors": [{"kind": "exporter", "exporter": "coredns"}, {"kind": "mpstat"}]}
    used_before = cpu_s(pid)
    campaign, points = run(stack, plan, timeout_s=300)
    used = cpu_s(pid) - used_before
    assert campaign["status"] == "completed", [p["error"] for p in points]
    evidence = campaign["analysis"]["evidence"]
    by_id = {e["point_id"]: e for e in evidence["points"]}
    read = 0.0
    for p in points:
        summary, e = p["extra"]["monitors"]["process"], by_id[p["id"]]
        read += summary["cpu_s"]
        assert summary["usable_cpus"] == 1 and "affinity" in summary["usable_source"], summary
        assert e["host_split"] and "server" in e["host_split"]["text"], e
        named = e["bottleneck"]["resource"] == "server process CPU"
        print(f"\nfigures: {p['offered_rate']:>7,.0f} q/s offered, {p['metrics']['achieved_rate']:,.0f} answered: CoreDNS "
              f"{summary['load_cpu_pct']:.0f} % of its 1 CPU + {100 * (summary['runqueue_wait_s'] or 0) / summary['load_s']:.0f} % "
              f"waiting; {e['host_split']['text']}; bottleneck: {e['bottleneck']['text']}")
        if p["offered_rate"] == 2_000:
            assert not named, e["bottleneck"]  # it answered everything: whatever else is busy, it is not its limit
    print(f"\nfigures: CoreDNS's CPU over the campaign: {used:.2f} s by this test's /proc reading, {read:.2f} s by the points")
    # the points' windows cover every load and nothing else used this server; between them it idles (a few ms)
    assert read == pytest.approx(used, rel=0.05, abs=0.1)
    text = evidence["bottleneck"]["text"]
    assert "server process" in text and "of its 1 usable CPU" in text, text
