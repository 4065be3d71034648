"""Every lab server's report carries, per point, the server process's own CPU per unit of work and the CPUs it may use
(the process monitor, added because each lab target names its process), and no point says an exporter was missing:
one short point against each lab target (DNS servers by dnsperf, web servers and balancers by wrk, iperf3 by iperf3)."""

from __future__ import annotations

import pytest

from kneeboard.lab import namespace
from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()

PARAMS = {"dns": ("dnsperf", {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2}, 2_000),
          "http": ("wrk", {"path": "/index.html", "threads": 1, "timeout_s": 2}, None),
          "net": ("iperf3", {"protocol": "tcp"}, 5_000_000_000)}  # at 100 Mbit/s the server spent one 10 ms tick in 3 s (read 0 or 0.01), 2 at 1 Gbit/s
SKIPPED = {"lab-https"}  # the same nginx as lab-http, over TLS (its own test: test_kbhttp_tls)


def lab_targets() -> list[dict]:
    return [t for t in namespace.targets() if t["kind"] in PARAMS and t["name"] not in SKIPPED]


@pytest.mark.parametrize("lab_target", lab_targets(), ids=lambda t: t["name"])
def test_each_lab_server_has_its_process_cpu_per_unit_of_work(stack, lab, lab_target):
    tool, params, rate = PARAMS[lab_target["kind"]]
    name = f"{lab_target['name']}-figures"
    found = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == name]
    body = {k: v for k, v in lab_target.items() if k not in ("name", "notes")}
    target = found[0]["id"] if found else stack.api.post("/api/v1/targets", json={**body, "name": name}).json()["id"]
    plan = {"name": f"figures {name}", "tool": tool, "target_id": target, "pause_s": 0, "params": params,
            "phases": [{"kind": "baseline", "concurrency": 2, **({"rate": rate} if rate else {}), "duration_s": 3}]}
    campaign, [point] = run(stack, plan)
    assert campaign["status"] == "completed", point["error"]
    process = point["extra"]["monitors"]["process"]
    [evidence] = [e for e in campaign["analysis"]["evidence"]["points"] if e["point_id"] == point["id"]]
    print(f"\nfigures: {lab_target['name']}: {process['process']} PIDs {process['pids']}, {process['cpu_s']} CPU-s, "
          f"usable {process['usable_cpus']} ({process['usable_source']}); cost {evidence['cost']}")
    assert process["pids"] and process["cpu_s"] > 0 and process["usable_cpus"], process
    assert evidence["cost"] and evidence["cost"]["value"] > 0 and evidence["cost"]["usable_cpus"], evidence
    assert not any("no exporter gave" in w for w in point["warnings"]), point["warnings"]
    assert "no exporter gave" not in str(campaign["analysis"])
