"""`AGENTS=2 kneeboard up` as root: two agents, each in its own network namespace, register through an API
listening on the lab bridge and reach the password-protected Redis there; a fanned point over them completes;
Ctrl-C ends them with everything else and removes their namespaces."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from kneeboard.lab import agents
from tests.integration.conftest import skip_without_lab
from tests.support.labs import lab_turn
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_fanout import environ, fanned_plan

ROOT = Path(__file__).resolve().parents[2]
skip_without_lab()
pytestmark = pytest.mark.lab  # `kneeboard up` brings up the lab of its own


def _banner(proc: subprocess.Popen, deadline: float) -> str:
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("  agents:"):
            break
    return "".join(lines)


def _ns_pids(ns: str) -> list[int]:
    return [int(p) for p in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()]


def test_up_with_agents_runs_them_in_namespaces_and_ctrl_c_ends_them(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "WORKDIR", "AGENTS"}}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'up.db'}", PYTHONPATH=str(ROOT / "backend"), AGENTS="2")
    with lab_turn():  # one lab per machine: take turns with the other lab tests
        proc = subprocess.Popen([sys.executable, "-m", "kneeboard.cli", "up", "--port", "8000"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)  # fmt: skip
        try:
            banner = _banner(proc, time.monotonic() + 120)
            assert "Kneeboard is up: " in banner and "lab: up" in banner, banner
            assert "agents: agent-1, agent-2 in netns kb-agent-1..2" in banner and f"http://{agents.BRIDGE_ADDR}:" in banner, banner
            url = banner.split("Kneeboard is up: ", 1)[1].split()[0]
            creds = dict(line.split("=", 1) for line in (ROOT / ".run" / "admin.env").read_text().split())
            api = httpx.Client(base_url=url, timeout=10, headers={"Authorization": f"Bearer {creds['KB_TOKEN']}"})
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                found = {a["name"]: a for a in api.get("/api/v1/agents").json() if a["name"].startswith("agent-")}
                if len(found) == 2 and all(a["alive"] and a["facts"].get("clock_offset_ms") is not None for a in found.values()):
                    break
                time.sleep(0.5)
            else:
                raise AssertionError("the lab agents did not register")
            pids = {ns: _ns_pids(ns) for ns in (agents.netns(1), agents.netns(2))}
            assert all(len(p) == 1 for p in pids.values()), pids
            for (ns_pids,) in pids.values():
                agent_env = environ(ns_pids)
                assert "DATABASE_URL" not in agent_env and "REDIS_URL" not in agent_env and "KB_ADMIN_TOKEN" not in agent_env
            dns = next(t for t in api.get("/api/v1/targets").json() if t["name"] == "lab-dns")
            body = fanned_plan(dns["id"], name="up agents", phases=[{"kind": "baseline", "concurrency": 2, "rate": 200, "duration_s": 2}])
            plan_id = api.post("/api/v1/plans", json=body).raise_for_status().json()["id"]
            campaign_id = api.post("/api/v1/campaigns", json={"plan_id": plan_id}).raise_for_status().json()["id"]
            campaign = wait_status(api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, timeout_s=90)
            point = api.get(f"/api/v1/points/{api.get(f'/api/v1/campaigns/{campaign_id}/points').json()[0]['id']}").json()
            assert campaign["status"] == "completed", point.get("error")
            assert sorted(s["agent"] for s in point["extra"]["shares"]) == ["agent-1", "agent-2"]
        finally:
            os.kill(proc.pid, signal.SIGINT)
            rest = proc.communicate(timeout=90)[0]
        assert proc.returncode == 0, rest
        assert "kneeboard: stopped" in rest
        time.sleep(0.5)
        left = [pid for ns_pids in pids.values() for pid in ns_pids if Path(f"/proc/{pid}").exists()]
        assert left == [], f"agents left behind: {left}"
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert agents.NETNS_PREFIX not in listed and "kblab" not in listed
