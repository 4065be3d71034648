"""Exported files read offline (tests/e2e/exports.mjs): two campaigns with samples and monitors, exported by the CLI
(`kneeboard campaigns export ID --html`, `kneeboard compare A B --html`), opened from disk with the network blocked."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from tests.support.browser import require_browser, run_node_script
from tests.support.reports import add_samples, import_campaign


def kb(stack, *args: str) -> str:
    """The `kneeboard` command against the stack (its admin token); its output, asserting exit 0."""
    env = {**stack.env, "KB_URL": stack.api_url, "KB_TOKEN": stack.admin_token}
    done = subprocess.run([sys.executable, "-m", "kneeboard.cli", *args], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_exported_files_read_offline_as_the_live_pages(stack, tmp_path):
    require_browser()
    tag = secrets.token_hex(3)
    ids = []
    for name, speed in ((f"export alpha {tag}", 1.0), (f"export beta {tag}", 1.4)):
        campaign = import_campaign(stack, name, points=12, speed=speed, duration_s=20)
        add_samples(campaign["id"], cpus=2)
        ids.append(campaign["id"])
    report, comparison = tmp_path / "report.html", tmp_path / "comparison.html"
    assert "wrote" in kb(stack, "campaigns", "export", str(ids[0]), "--html", str(report))
    assert "wrote" in kb(stack, "compare", str(ids[0]), str(ids[1]), "--html", str(comparison))
    assert report.stat().st_size > 10_000 and os.path.getsize(comparison) > 10_000
    run_node_script(stack, "exports.mjs", user_prefix="exports", timeout=240,
                    extra_env={"KB_EXPORT_IDS": ",".join(map(str, ids)), "KB_EXPORT_REPORT": str(report), "KB_EXPORT_COMPARISON": str(comparison)})  # fmt: skip
