"""Real Postgres for the test suite; Redis, worker and API come from kneeboard.stack."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from kneeboard.stack import free_port, migrate, start_api, start_beat, start_redis, start_worker, stop, stop_all, wait_port, wait_scale

__all__ = ["free_port", "migrate", "start_api", "start_beat", "start_postgres", "start_redis", "start_worker", "stop", "stop_all", "wait_for_agent"]
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), default=Path("/usr/lib/postgresql/15/bin"), key=lambda p: int(p.parent.name))


def _as_postgres(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def start_postgres(tmp: Path) -> tuple[subprocess.Popen, str]:
    """A throwaway Postgres cluster on a free port; returns (process, DATABASE_URL)."""
    data = tmp / "pgdata"
    tmp.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres")
    subprocess.run(_as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-U", "kneeboard", "--auth=trust", "-E", "UTF8"]),
                   check=True, capture_output=True)  # fmt: skip
    port = free_port()
    proc = subprocess.Popen(
        _as_postgres([str(PG_BIN / "postgres"), "-D", str(data), "-p", str(port), "-k", str(tmp), "-c", "listen_addresses=127.0.0.1",
                      "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
        stdout=subprocess.DEVNULL, stderr=open(tmp / "postgres.log", "wb"), start_new_session=True,
    )  # fmt: skip
    wait_port(port, proc, "postgres")
    for _ in range(50):
        done = subprocess.run([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "kneeboard", "kneeboard"], capture_output=True)
        if done.returncode == 0:
            break
        time.sleep(0.2)
    return proc, f"postgresql+psycopg://kneeboard@127.0.0.1:{port}/kneeboard"


def wait_for_agent(client, name: str, timeout_s: float = 60) -> None:
    """Wait until the worker has registered itself as an agent (for `timeout_s` × KB_WAIT_SCALE)."""
    timeout_s *= wait_scale()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(a["name"] == name for a in client.get("/api/v1/agents").json()):
            return
        time.sleep(0.3)
    raise RuntimeError(f"agent {name} did not register within {timeout_s} s")
