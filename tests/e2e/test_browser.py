"""The browser journey (tests/e2e/journey.mjs, playwright-core driving Debian's Chromium) against the real stack."""

from __future__ import annotations

import shutil
import subprocess
import time

from tests.support import services
from tests.support.browser import run_node_script


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
    assert shutil.which("iperf3"), "iperf3 is needed for the journey's iperf3 campaign (make up installs it)"
    iperf3, iperf3_port = _start_iperf3()
    try:
        run_node_script(stack, "journey.mjs", user_prefix="e2e", extra_env={"KB_IPERF3_PORT": str(iperf3_port)}, timeout=600)
    finally:
        iperf3.terminate()  # by its PID
        try:
            iperf3.wait(timeout=5)
        except subprocess.TimeoutExpired:
            iperf3.kill()
            iperf3.wait(timeout=5)
