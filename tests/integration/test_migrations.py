"""The Alembic migrations apply on SQLite (the embedded default) as they do on Postgres (the suite's stack)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def alembic(*args: str, url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT / "backend")}
    return subprocess.run([sys.executable, "-m", "alembic", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def test_upgrade_and_downgrade_on_sqlite(tmp_path):
    url = f"sqlite:///{tmp_path / 'kb.db'}"
    assert alembic("upgrade", "head", url=url).returncode == 0
    tables = {r[0] for r in sqlite3.connect(tmp_path / "kb.db").execute("select name from sqlite_master where type='table'")}
    assert {"targets", "plans", "campaigns", "points", "samples", "agents", "device_profiles", "target_policy", "alembic_version"} <= tables
    down = alembic("downgrade", "base", url=url)
    assert down.returncode == 0, down.stderr
    tables = {r[0] for r in sqlite3.connect(tmp_path / "kb.db").execute("select name from sqlite_master where type='table'")}
    assert tables == {"alembic_version"}


def test_postgres_is_at_head(stack):
    current = alembic("current", url=stack.env["DATABASE_URL"])
    heads = alembic("heads", url=stack.env["DATABASE_URL"])
    assert current.returncode == 0 and heads.stdout.split()[0] in current.stdout
