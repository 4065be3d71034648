"""Fan-out in the lab (issue 18): `kneeboard agent` processes each in its own network namespace
(kb-agent-1..4, own address on the lab bridge, no database credentials), reaching the API and Redis on the
bridge address, load the lab's servers in netns kblab. On one 2-core box this proves the mechanics
(reservation, start skew, exact merge, failure), not added capacity."""

from __future__ import annotations

import os
import time

import pytest

from kneeboard.analysis import hdr
from kneeboard.lab import agents, namespace
from kneeboard.stack import ROOT, stop
from tests.integration.conftest import skip_without_lab
from tests.integration.test_fanout import agent_credential, broker_secrets, environ, fanned_plan, kill_one_mid_point, run_plan, wait_agents
from tests.integration.test_lab_campaigns import target

skip_without_lab()
K = 4
DEVICES = int(os.environ.get("KB_FANOUT_DEVICES", "20000"))  # `make bench-fanout-devsim`: 100,000
RAMP = int(os.environ.get("KB_FANOUT_RAMP", "4000"))  # connections/s over all agents


@pytest.fixture(scope="module")
def lab_agents(stack, lab):
    """K agents in their namespaces, each with its own credential, reaching only a second API process listening on
    the bridge address (Redis and Postgres stay on loopback, out of the agents' reach)."""
    agents.ensure(K)
    api, url = agents.start_api(stack.env, stack.tmp)
    procs = {}
    try:
        procs = {agents.agent_name(i): agents.start(i, url, agent_credential(stack, agents.agent_name(i)), stack.tmp / f"lab-agent-{i}.log")
                 for i in range(1, K + 1)}
        yield wait_agents(stack, set(procs)), procs
    finally:
        for proc in procs.values():
            stop(proc)
        stop(api)


def test_each_agent_runs_in_its_own_namespace_without_database_credentials(stack, lab_agents):
    found, procs = lab_agents
    namespaces = {os.readlink(f"/proc/{proc.pid}/ns/net") for proc in procs.values()}
    assert len(namespaces) == K and os.readlink("/proc/self/ns/net") not in namespaces
    for i in range(1, K + 1):
        name = agents.agent_name(i)
        env = environ(procs[name].pid)
        assert "DATABASE_URL" not in env and "REDIS_URL" not in env and "KB_ADMIN_TOKEN" not in env, name
        assert not [h for h in broker_secrets(stack) if any(h in v for v in env.values())], name
        log = (stack.tmp / f"lab-agent-{i}.log").read_text()
        assert "/api/v1/agent/hello" in log and not [h for h in broker_secrets(stack) if h in log], name
        assert agents.address(i) in found[name]["facts"]["addresses"], "each agent leaves by its own address"


def test_a_dnsperf_point_fanned_over_two_namespaced_agents_merges_exactly(stack, lab_agents):
    body = fanned_plan(target(stack, "lab-dns", "dns", 53), name="lab fanned", agents=["agent-1", "agent-2"])
    campaign, point = run_plan(stack, body)
    assert campaign["status"] == "completed", point.get("error")
    extra, metrics = point["extra"], point["metrics"]
    shares = extra["shares"]
    assert sorted(s["agent"] for s in shares) == ["agent-1", "agent-2"] and all(s["error"] is None for s in shares)
    print(f"\nfigures: start skew {extra['start_skew_ms']:.2f} ms; achieved {[round(s['achieved_rate']) for s in shares]} "
          f"= {metrics['achieved_rate']:.0f} qps; p50 {metrics['latency_p50_ms']} ms, p99 {metrics['latency_p99_ms']} ms")
    assert extra["start_skew_ms"] < 50
    assert metrics["achieved_rate"] == pytest.approx(sum(s["achieved_rate"] for s in shares))
    assert metrics["achieved_rate"] > 0.9 * 1000
    union = hdr.merge(s["hdr"] for s in shares)
    assert {k: metrics[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(union)
    assert union.get_total_count() == metrics["completed"]


def test_devices_spread_over_four_namespaced_agents_all_log_in(stack, lab, lab_agents):
    """Each agent connects from its own address (28k ephemeral ports each towards one server port); the lab's
    devsim serves with 8 SO_REUSEPORT processes; no process holds more than 16,000 connections (limit 20,000).
    `make bench-fanout-devsim` runs it with 100,000 devices (KB_FANOUT_DEVICES); `make test` with 20,000."""
    namespace.up(lab[0], devsim_binary=str(ROOT / "simulator" / "bin" / "devsim"))
    body = {"name": f"{DEVICES} devices", "tool": "devsim", "target_id": target(stack, "lab-devsim", "device", namespace.DEVSIM_PORT),
            "agents": [agents.agent_name(i) for i in range(1, K + 1)], "pause_s": 0,
            "params": {"ramp_per_s": RAMP, "login_timeout_s": 30},
            "phases": [{"kind": "stability", "concurrency": DEVICES, "rate": 0.1, "duration_s": 5}]}
    started = time.monotonic()
    campaign, point = run_plan(stack, body, timeout_s=DEVICES / RAMP * 3 + 120)
    took = time.monotonic() - started
    shares = point["extra"]["shares"]
    logins = [s["extra"].get("logins") for s in shares]
    print(f"\nfigures: {DEVICES} devices over {K} agents at {RAMP}/s: logins {logins} = {sum(x or 0 for x in logins)}, "
          f"ramp {[s['extra'].get('ramp_s') for s in shares]} s, procs {[s['extra'].get('procs') for s in shares]}, "
          f"rss {[s['extra'].get('rss_peak_kib') for s in shares]} KiB, start skew {point['extra']['start_skew_ms']} ms, "
          f"acked {point['metrics'].get('achieved_rate')} reports/s, campaign {took:.0f} s; error {point.get('error')}")
    assert campaign["status"] == "completed", point.get("error")
    assert sum(logins) == DEVICES and all(x == DEVICES // K for x in logins)
    assert sum(s["extra"]["devices"] for s in shares) == DEVICES
    assert all(s["extra"]["devices"] / s["extra"]["procs"] <= 16_000 for s in shares)
    assert point["metrics"]["errors"] == 0


def test_killing_one_namespaced_agent_fails_its_share_and_stops_the_others_load(stack, lab_agents):
    _found, procs = lab_agents
    survivor_name, victim_name = "agent-3", "agent-4"
    body = fanned_plan(target(stack, "lab-dns", "dns", 53), name="lab kill one", agents=[survivor_name, victim_name],
                       phases=[{"kind": "baseline", "concurrency": 2, "rate": 400, "duration_s": 30}])
    kill_one_mid_point(stack, body, procs[survivor_name], procs[victim_name])
