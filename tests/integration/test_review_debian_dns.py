"""A review run, not part of `make test` (KB_REVIEW=1, `make review-debian-dns`): NSD, a DNS server from Debian that the
lab does not run and no other test uses, started on loopback as its package ships it (one server process, its default
server count), swept past its capacity through the API as a user would; prints the report's knee, ceiling and
bottleneck statements beside the raw points, and checks the statements against those points (the invariants of
issue 47: a knee at or below the first load its rule crosses, a ceiling called a lower bound only when no higher load
achieved less)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import uuid

import pytest

from kneeboard.lab.processes import wait_tcp
from kneeboard.stack import free_port
from tests.integration.test_lab_campaigns import run

NSD = shutil.which("nsd") or "/usr/sbin/nsd"
if not os.environ.get("KB_REVIEW"):
    pytest.skip("a review run: KB_REVIEW=1 (make review-debian-dns)", allow_module_level=True)
if not os.path.exists(NSD):
    pytest.skip("nsd is not installed (scripts/install-deps.sh review)", allow_module_level=True)

NAMES = ["www.example.lab"] + [f"h{i:04d}.example.lab" for i in range(1, 6)]
RATES = [5_000, 20_000, 40_000, 60_000, 80_000, 100_000, 130_000, 160_000]


@pytest.fixture()
def nsd(tmp_path):
    port = free_port()
    zone = tmp_path / "example.lab.zone"
    zone.write_text("$ORIGIN example.lab.\n$TTL 300\n@ IN SOA ns hostmaster 1 7200 3600 1209600 300\n@ IN NS ns\n"
                    "ns IN A 192.0.2.53\n" + "".join(f"{n.split('.')[0]} IN A 192.0.2.{i + 1}\n" for i, n in enumerate(NAMES)))
    conf = tmp_path / "nsd.conf"
    conf.write_text(f'server:\n    ip-address: 127.0.0.1@{port}\n    port: {port}\n    username: ""\n    chroot: ""\n'
                    f'    zonesdir: "{tmp_path}"\n    pidfile: "{tmp_path}/nsd.pid"\n    xfrdfile: "{tmp_path}/xfrd.state"\n'
                    f'    zonelistfile: "{tmp_path}/zone.list"\n    database: ""\n    logfile: "{tmp_path}/nsd.log"\n'
                    f'remote-control:\n    control-enable: no\nzone:\n    name: example.lab\n    zonefile: "{zone}"\n')
    proc = subprocess.Popen([NSD, "-d", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_tcp("127.0.0.1", port, proc, timeout_s=20)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def test_nsd_swept_past_its_capacity_reads_as_its_points(stack, nsd):
    target = stack.api.post("/api/v1/targets", json={"name": f"nsd-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1",
                                                     "port": nsd, "process": "nsd"})
    assert target.status_code == 201, target.text
    plan = {"name": "NSD past capacity", "tool": "dnsperf", "target_id": target.json()["id"], "pause_s": 0, "repeat": 2,
            "params": {"names": NAMES, "qtype": "A", "timeout_s": 2},
            "phases": [{"kind": "saturation", "concurrency": 20, "rate": RATES, "duration_s": 4}],
            "monitors": [{"kind": "mpstat"}]}
    campaign, points = run(stack, plan, timeout_s=600)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    analysis = campaign["analysis"]
    print("\nraw points (offered → achieved, mean ms, lost %):")
    for p in sorted(points, key=lambda p: (p["offered_rate"], p["repeat"])):
        m = p["metrics"]
        print(f"  {p['offered_rate']:>8,.0f} → {m['achieved_rate']:>9,.0f}  {m.get('latency_avg_ms') or 0:7.2f}  "
              f"{100 * (m.get('lost') or 0) / max(1, m.get('sent') or 1):5.2f}")
    knee, ceiling = analysis.get("knee") or {}, analysis.get("ceiling") or analysis.get("capacity") or {}
    print(f"\nheadline: {analysis.get('headline')}\nknee: {knee}\nceiling: {ceiling}\n"
          f"bottleneck: {((analysis.get('evidence') or {}).get('bottleneck') or {}).get('text')}")
    achieved = {}
    for p in points:
        achieved.setdefault(p["offered_rate"], []).append(p["metrics"]["achieved_rate"])
    best = max(achieved, key=lambda load: sorted(achieved[load])[len(achieved[load]) // 2])
    higher = [load for load in achieved if load > best]
    if higher:  # a load past the best achieved less: the ceiling is measured, not a lower bound
        assert ceiling.get("kind") != "lower_bound", ceiling
