"""The lab's node_exporter: started in netns kblab on the lab address only, and a lab campaign whose points
carry the server's per-CPU %soft from it, under one and two veth queues (needs root: the lab)."""

from __future__ import annotations

import os
import subprocess
import urllib.request
from datetime import datetime

from kneeboard.lab import namespace

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run, series_of

skip_without_lab()


def test_node_exporter_runs_in_the_namespace_on_the_lab_address(lab):
    _, status = lab
    exporter = next(s for s in status.services if s["name"] == namespace.METRICS_SERVICE)
    assert exporter["running"] and exporter["host"] == "10.77.0.2" and exporter["port"] == 9100, exporter
    inside = subprocess.run(["ip", "netns", "pids", namespace.NETNS], capture_output=True, text=True).stdout.split()
    assert str(exporter["pid"]) in inside
    argv = open(f"/proc/{exporter['pid']}/cmdline").read().split("\0")
    assert "--web.listen-address=10.77.0.2:9100" in argv
    page = urllib.request.urlopen(namespace.METRICS_URL, timeout=5).read().decode()
    assert 'node_cpu_seconds_total{cpu="0",mode="softirq"}' in page
    assert 'device="kbl0"' in page and 'device="kbh0"' not in page  # /proc/net of the namespace, not the host's


def test_lab_campaign_shows_the_servers_per_cpu_soft_per_point(stack, lab):
    body = {"name": "lab-iperf3-node", "kind": "net", "host": namespace.LAB_ADDR, "port": namespace.IPERF3_PORT,
            "tags": ["lab"], "metrics_url": namespace.METRICS_URL}
    existing = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == body["name"]]
    target_id = existing[0]["id"] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]
    plan = {
        "name": "lab udp queues, server soft", "tool": "iperf3", "target_id": target_id,
        "params": {"protocol": "udp", "length": 1448},
        "phases": [{"kind": "stability", "concurrency": 4, "rate": 400_000_000, "duration_s": 6}],
        "pause_s": 0, "monitors": [{"kind": "node"}],
        "variants": [{"label": "1 queue", "set": {"lab.veth_queues": 1}}, {"label": "2 queues", "set": {"lab.veth_queues": 2}}],
    }  # fmt: skip
    campaign, points = run(stack, plan)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    busiest = []
    for point in points:
        assert point["status"] == "completed" and not [w for w in point["warnings"] if "node" in w], point["warnings"]
        samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
        soft = [s for s in samples if s["series"].startswith("node.cpu")]
        began, ended = (datetime.fromisoformat(point[k]).timestamp() for k in ("started_at", "ended_at"))
        assert len({s["t"] for s in soft}) >= 2 and all(began <= s["t"] <= ended for s in soft)
        assert "node.net.kbl0" in series_of(stack, point["id"])  # the server side of the veth, seen from inside
        summary = point["extra"]["monitors"]["node"]
        assert len(summary["soft_mean_pct_by_cpu"]) == os.cpu_count(), summary  # every CPU of the server, this point's own figures
        busiest.append(summary["busiest_cpu_soft_mean_pct"])  # /proc/stat counts softirq in 10 ms ticks: a short point may see none
        rx = [s["values"]["rx_pps"] for s in samples if s["series"] == "node.net.kbl0"]
        print(f"\nfigures: lab iperf3 UDP -P 4 400 Mbit/s, {point['variant']}: "
              f"{point['metrics']['throughput_bps'] / 1e6:.0f} Mbit/s; server %soft by CPU "
              f"{ {k: round(v, 1) for k, v in summary['soft_mean_pct_by_cpu'].items()} }; kbl0 rx max {max(rx):.0f} pkt/s")
    assert max(busiest) > 0, "the UDP load shows in the server's %soft in at least one variant"
