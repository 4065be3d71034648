"""The browser tests' launcher: a node script of tests/e2e (playwright-core driving Debian's Chromium) run against the
real stack as a new admin it signs in as; its output is printed and it must end with "N passed, 0 failed"."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"
CHROMIUM = Path("/usr/bin/chromium")


def require_browser(node_packages: tuple[str, ...] = ()) -> None:
    """Fail with what to do when the built UI, node, Debian's Chromium or a frontend package is missing."""
    assert (ROOT / "frontend" / "dist" / "index.html").exists(), "build the UI first (make test does: npm run build)"
    assert shutil.which("node") and CHROMIUM.exists(), "node and Debian's chromium are needed (make test installs them)"
    for package in node_packages:
        assert (ROOT / "frontend" / "node_modules" / package).exists(), f"{package}: npm install in frontend/ (make test does)"


def make_admin(stack, prefix: str) -> tuple[str, str]:
    """A new admin account through POST /api/v1/users; returns (username, password)."""
    user, password = f"{prefix}-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    created = stack.api.post("/api/v1/users", json={"username": user, "password": password, "role": "admin"})
    assert created.status_code == 201, created.text
    return user, password


def run_node_script(stack, script: str, *, timeout: float, extra_env: dict[str, str] | None = None, user_prefix: str = "e2e",
                    node_packages: tuple[str, ...] = ()) -> str:  # fmt: skip
    """Run tests/e2e/`script` with node (in frontend/, where its packages are) against `stack`, signed in as a new admin
    (KB_E2E_USER, KB_E2E_PASSWORD), with the admin token (KB_TOKEN), the stack's DNS server (KB_DNS_HOST, KB_DNS_PORT) and
    `extra_env`. Prints the end of its output, asserts it exited 0 closing with "0 failed"; returns its output."""
    require_browser(node_packages)
    user, password = make_admin(stack, user_prefix)
    env = {**os.environ, "KB_BASE_URL": stack.api_url, "KB_DNS_HOST": stack.dns_host, "KB_DNS_PORT": str(stack.dns_port),
           "KB_E2E_USER": user, "KB_E2E_PASSWORD": password, "KB_TOKEN": stack.admin_token, **(extra_env or {})}  # fmt: skip
    done = subprocess.run(["node", str(E2E / script)], cwd=ROOT / "frontend", env=env, capture_output=True, text=True, timeout=timeout)
    print(done.stdout[-8000:])
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    last = (done.stdout.strip().splitlines() or [""])[-1]
    assert last.endswith(" 0 failed"), f"{script} closed with {last!r}"
    return done.stdout
