"""Issue 34 on a real campaign (API → worker → dnsperf → the suite's unbound on loopback): the environment says the
generator shares the host and which autogroup setting was in force, the report (and its share page) says so, and
the point records the harness's own CPU; the suite's servers and Kneeboard's processes start no session of their own."""

from __future__ import annotations

import os
from pathlib import Path

from kneeboard.environment import AUTOGROUP
from tests.integration.test_campaign_run import wait_status


def test_a_loopback_campaign_says_it_shares_the_host_and_records_the_harness_cpu(stack, dns_target):
    plan = {"name": "host sharing", "tool": "dnsperf", "target_id": dns_target["id"], "pause_s": 0, "repeat": 1,
            "params": {"names": ["www.example.lab"], "latency_capture": False},
            "phases": [{"kind": "baseline", "concurrency": 2, "rate": 500, "duration_s": 2}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    assert campaign["status"] == "completed", campaign

    autogroup = Path(AUTOGROUP).read_text().strip() if Path(AUTOGROUP).exists() else "unavailable"
    assert campaign["environment"]["kernel.sched_autogroup_enabled"] == autogroup
    assert campaign["environment"]["generator.shares_host"] == "yes (loopback)"
    assert campaign["host_sharing"] == {
        "shares_host": "yes (loopback)", "sched_autogroup_enabled": autogroup,
        "note": f"the load generator shares this host with the server (loopback); kernel.sched_autogroup_enabled={autogroup}: "
                "near saturation the latency depends on how the scheduler groups the two",
    }  # fmt: skip

    token = stack.api.post(f"/api/v1/campaigns/{campaign_id}/shares", json={"expires_in_s": 600}).json()["url"].rsplit("/s/", 1)[1]
    assert stack.api.get(f"/api/v1/shared/{token}").json()["campaign"]["host_sharing"] == campaign["host_sharing"], "the share page too"

    point = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    used = point["extra"]["harness_cpu"]
    assert set(used) == {"worker_s", "children_s", "api_s", "api_processes", "redis_s", "wall_s"}
    assert used["wall_s"] >= 2 and 0 < used["worker_s"] < used["wall_s"], "the worker ran the point, using some CPU"
    assert used["api_processes"] == 1 and 0 <= used["api_s"] < used["wall_s"], "the suite's API, found by its pid file"
    assert used["redis_s"] is not None and 0 < used["redis_s"] < used["wall_s"], "the broker on loopback, by INFO cpu"


def test_kneeboards_processes_and_the_dns_server_are_groups_in_the_starters_session(stack):
    ours = [p for p in stack.started if (Path(str(p.args[0])).name in {"redis-server", "unbound"} or "celery" in p.args or "uvicorn" in p.args)
            and p.poll() is None]  # earlier tests may have ended extra workers they started
    assert len(ours) >= 5, [p.args for p in stack.started]  # redis, unbound, worker, beat, API
    for proc in ours:
        assert os.getsid(proc.pid) == os.getsid(0) != proc.pid, f"{proc.args[:3]} started a session (a scheduling autogroup)"
        assert os.getpgid(proc.pid) == proc.pid, f"{proc.args[:3]} is not the leader of a group of its own (killpg by pid)"
