"""The README's start command: `kneeboard up` starts everything, prints its URL, and Ctrl-C ends what it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def test_up_serves_the_api_and_stops_on_ctrl_c(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "WORKDIR"}}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'up.db'}", PYTHONPATH=str(ROOT / "backend"))
    proc = subprocess.Popen([sys.executable, "-m", "kneeboard.cli", "up", "--no-lab", "--port", "8000"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)  # fmt: skip
    lines, url = [], None
    try:
        deadline = time.monotonic() + 90
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Kneeboard is up: "):
                url = line.split(": ", 1)[1].strip()
        assert url, "".join(lines)
        while not lines[-1].startswith("  lab:"):  # the banner's rest (communicate() below skips what readline buffered)
            lines.append(proc.stdout.readline())
        health = {}
        while time.monotonic() < deadline and not health.get("agents"):
            health = httpx.get(f"{url}/api/v1/health", timeout=5).json()
            time.sleep(0.5)
        assert health["database"] == "ok" and health["broker"] == "ok" and health["agents"] == ["local"]
        admin_env = ROOT / ".run" / "admin.env"
        assert admin_env.stat().st_mode & 0o777 == 0o600
        creds = dict(line.split("=", 1) for line in admin_env.read_text().split())
        assert httpx.get(f"{url}/api/v1/targets").status_code == 401
        login = httpx.post(f"{url}/api/v1/auth/login", json={"username": creds["KB_USER"], "password": creds["KB_PASSWORD"]})
        assert login.status_code == 200 and login.json()["role"] == "admin"
        targets = httpx.get(f"{url}/api/v1/targets", headers={"Authorization": f"Bearer {creds['KB_TOKEN']}"}).json()
        assert any(t["name"] == "local-dns" and t["kind"] == "dns" for t in targets)
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(children) >= 4  # redis, unbound, worker, api
    finally:
        os.kill(proc.pid, signal.SIGINT)
        rest = proc.communicate(timeout=60)[0]
    assert proc.returncode == 0, rest
    banner = "".join(lines)
    assert "admin credentials: " in banner and "broker redis://:***@127.0.0.1:" in banner  # the broker's password is masked
    assert "kneeboard: stopped" in rest
    time.sleep(0.5)
    left = [pid for pid in children if Path(f"/proc/{pid}").exists()]
    assert left == [], f"processes left behind: {left}"
