"""The browser journey (tests/e2e/journey.mjs, playwright-core driving Debian's Chromium) against the real stack."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tmp_share_journey(stack):
    assert (ROOT / "frontend" / "dist" / "index.html").exists(), "build the UI first (make test does: npm run build)"
    assert shutil.which("node") and Path("/usr/bin/chromium").exists(), "node and Debian's chromium are needed (make test installs them)"
    user, password = f"e2e-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    created = stack.api.post("/api/v1/users", json={"username": user, "password": password, "role": "admin"})
    assert created.status_code == 201, created.text
    env = {**os.environ, "KB_BASE_URL": stack.api_url, "KB_DNS_HOST": stack.dns_host, "KB_DNS_PORT": str(stack.dns_port),
           "KB_E2E_USER": user, "KB_E2E_PASSWORD": password, "KB_TOKEN": stack.admin_token}  # fmt: skip
    done = subprocess.run(["node", str(ROOT / "tests" / "e2e" / "zz_tmp_share_journey.mjs")], cwd=ROOT / "frontend", env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    print(done.stdout[-5000:])
    assert done.returncode == 0, f"journey failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
