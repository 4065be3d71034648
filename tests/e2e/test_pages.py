"""The page sweep (tests/e2e/pages.mjs): every page at 1280 px and 390 px, light and dark, through axe-core,
checked for sideways overflow and for console errors and failed requests; playwright-core drives Debian's Chromium."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pages_accessible_at_both_widths_and_themes(stack):
    assert (ROOT / "frontend" / "dist" / "index.html").exists(), "build the UI first (make test does: npm run build)"
    assert shutil.which("node") and Path("/usr/bin/chromium").exists(), "node and Debian's chromium are needed (make test installs them)"
    assert (ROOT / "frontend" / "node_modules" / "@axe-core" / "playwright").exists(), "npm install in frontend/ (make test does)"
    user, password = f"pages-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    created = stack.api.post("/api/v1/users", json={"username": user, "password": password, "role": "admin"})
    assert created.status_code == 201, created.text
    env = {**os.environ, "KB_BASE_URL": stack.api_url, "KB_DNS_HOST": stack.dns_host, "KB_DNS_PORT": str(stack.dns_port),
           "KB_E2E_USER": user, "KB_E2E_PASSWORD": password, "KB_TOKEN": stack.admin_token}  # fmt: skip
    done = subprocess.run(["node", str(ROOT / "tests" / "e2e" / "pages.mjs")], cwd=ROOT / "frontend", env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    print(done.stdout[-8000:])
    assert done.returncode == 0, f"page sweep failed:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    assert "0 failed" in done.stdout.splitlines()[-1], done.stdout.splitlines()[-1]
