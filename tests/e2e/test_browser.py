"""The browser journey (tests/e2e/journey.mjs, playwright-core driving Debian's Chromium) against the real stack."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from pathlib import Path

from tests.support import services

ROOT = Path(__file__).resolve().parents[2]


def _listening(port: int) -> bool:
    """Whether 127.0.0.1:port is in LISTEN state (read from /proc: a test connection would count as an iperf3 client)."""
    wanted = f"0100007F:{port:04X}"
    with open("/proc/net/tcp") as table:
        return any(cols[1] == wanted and cols[3] == "0A" for cols in (line.split() for line in table.readlines()[1:]))


def _start_iperf3() -> tuple[subprocess.Popen, int]:
    """An iperf3 server on 127.0.0.1 at a free port, for the journey's iperf3 campaign."""
    port = services.free_port()
    proc = subprocess.Popen(["iperf3", "-s", "-B", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not _listening(port):
        assert proc.poll() is None, f"iperf3 -s exited with code {proc.returncode}"
        assert time.monotonic() < deadline, f"iperf3 -s did not listen on {port}"
        time.sleep(0.05)
    return proc, port


def test_browser_journey(stack):
    assert (ROOT / "frontend" / "dist" / "index.html").exists(), "build the UI first (make test does: npm run build)"
    assert shutil.which("node") and Path("/usr/bin/chromium").exists(), "node and Debian's chromium are needed (make test installs them)"
    assert shutil.which("iperf3"), "iperf3 is needed for the journey's iperf3 campaign (make up installs it)"
    user, password = f"e2e-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    created = stack.api.post("/api/v1/users", json={"username": user, "password": password, "role": "admin"})
    assert created.status_code == 201, created.text
    iperf3, iperf3_port = _start_iperf3()
    try:
        env = {**os.environ, "KB_BASE_URL": stack.api_url, "KB_DNS_HOST": stack.dns_host, "KB_DNS_PORT": str(stack.dns_port),
               "KB_E2E_USER": user, "KB_E2E_PASSWORD": password, "KB_TOKEN": stack.admin_token,
               "KB_IPERF3_PORT": str(iperf3_port)}  # fmt: skip
        done = subprocess.run(["node", str(ROOT / "tests" / "e2e" / "journey.mjs")], cwd=ROOT / "frontend", env=env,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
    finally:
        iperf3.terminate()  # by its PID
        try:
            iperf3.wait(timeout=5)
        except subprocess.TimeoutExpired:
            iperf3.kill()
            iperf3.wait(timeout=5)
    print(done.stdout[-5000:])
    assert done.returncode == 0, f"journey failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
