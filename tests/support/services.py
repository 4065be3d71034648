"""Real Postgres, Redis, DNS server, Celery worker and API processes for the test suite."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout_s: float = 30) -> None:
    """Wait until 127.0.0.1:port accepts connections, or fail naming `what`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with code {proc.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout_s} s")


def stop(proc: subprocess.Popen | None) -> None:
    """End a process this suite started (its group), by PID."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass


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


def start_redis(tmp: Path) -> tuple[subprocess.Popen, str]:
    """A Redis server on a free loopback port, no persistence; returns (process, REDIS_URL)."""
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    wait_port(port, proc, "redis-server")
    return proc, f"redis://127.0.0.1:{port}/0"


def start_worker(env: dict[str, str], tmp: Path) -> subprocess.Popen:
    """A real Celery worker consuming the `local` agent queue."""
    log = open(tmp / "worker.log", "wb")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kneeboard.worker.celery_app", "worker", "-Q", env["AGENT_NAME"],
         "-c", "1", "--pool=solo", "--loglevel=INFO", "-n", f"{env['AGENT_NAME']}@%h"],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


def start_api(env: dict[str, str], tmp: Path) -> tuple[subprocess.Popen, str]:
    """The API under uvicorn on a free loopback port; returns (process, base URL)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "kneeboard.main:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env, cwd=ROOT, stdout=open(tmp / "api.log", "wb"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    wait_port(port, proc, "the API")
    return proc, f"http://127.0.0.1:{port}"


def migrate(env: dict[str, str]) -> None:
    """Apply the Alembic migrations to the configured database."""
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], env=env, cwd=ROOT, check=True, capture_output=True)


def wait_for_agent(client, name: str, timeout_s: float = 60) -> None:
    """Wait until the worker has registered itself as an agent."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(a["name"] == name for a in client.get("/api/v1/agents").json()):
            return
        time.sleep(0.3)
    raise RuntimeError(f"agent {name} did not register within {timeout_s} s")
