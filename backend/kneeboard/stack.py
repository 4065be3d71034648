"""Starting Kneeboard's own processes (Redis, worker, API) and ending them by PID."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port(preferred: int | None = None) -> int:
    """`preferred` if nothing listens there, else any free loopback TCP port."""
    for port in ([preferred] if preferred else []) + [0]:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise RuntimeError("no free port")


def wait_scale() -> float:
    """KB_WAIT_SCALE (1 unless set): the factor on start-up waits where this process and its children get only the CPU
    others leave (scripts/test-python.sh's background lane under SCHED_IDLE, beside a hog in `make test-busy`)."""
    return float(os.environ.get("KB_WAIT_SCALE") or 1)


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout_s: float = 30, host: str = "127.0.0.1") -> None:
    """Wait until host:port accepts connections (for `timeout_s` × wait_scale()), or fail naming `what`."""
    timeout_s *= wait_scale()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with code {proc.returncode}")
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
            if sock.connect_ex((host, port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout_s:g} s")


def stop(proc: subprocess.Popen | None, timeout_s: float = 10) -> None:
    """End a process we started, with its group: SIGTERM, then SIGKILL."""
    stop_all([proc], timeout_s)


def stop_all(procs: list[subprocess.Popen], timeout_s: float = 10) -> None:
    """End processes we started, each with its group, all at once: SIGTERM to every group, then SIGKILL to what is left
    after `timeout_s` (one shared wait instead of one a process)."""
    living = [proc for proc in procs if proc is not None and proc.poll() is None]
    for proc in living:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
    deadline = time.monotonic() + timeout_s
    for proc in living:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)


def _spawn(argv: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    # a process group, not a session: a new session is a new scheduling autogroup (kernel.sched_autogroup_enabled=1),
    # and the tools the worker starts would share the CPUs with a server on this host group against group
    log.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            process_group=0)


def start_redis(rundir: Path, port: int | None = None, password: str | None = None) -> tuple[subprocess.Popen, str]:
    """A Redis server on loopback with no persistence (and `password` required, if given); returns (process, REDIS_URL)."""
    port = port or free_port()
    argv = ["redis-server", "-", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(rundir)]
    log = rundir / "redis.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=open(log, "ab"), stderr=subprocess.STDOUT, process_group=0)
    proc.stdin.write(f"requirepass {password}\n".encode() if password else b"")  # on stdin, not in argv for ps to show
    proc.stdin.close()
    wait_port(port, proc, "redis-server")
    return proc, f"redis://:{password}@127.0.0.1:{port}/0" if password else f"redis://127.0.0.1:{port}/0"


def start_worker(env: dict[str, str], rundir: Path) -> subprocess.Popen:
    """A Celery worker consuming its agent's own queue, one point at a time."""
    agent = env.get("AGENT_NAME", "local")
    argv = [sys.executable, "-m", "celery", "-A", "kneeboard.worker.celery_app", "worker", "-Q", agent,
            "-c", "1", "--pool=solo", "--loglevel=INFO", "-n", f"{agent}@%h"]  # fmt: skip
    return _spawn(argv, rundir / "worker.log", env)


def start_beat(env: dict[str, str], rundir: Path) -> subprocess.Popen:
    """The scheduler: Celery beat embedded in a one-task worker on its own queue (it launches due schedules)."""
    argv = [sys.executable, "-m", "celery", "-A", "kneeboard.worker.beat", "worker", "-B", "-Q", "kneeboard.schedules",
            "-c", "1", "--pool=solo", "--loglevel=INFO", "-n", "schedules@%h", "-s", str(rundir / "celerybeat-schedule")]  # fmt: skip
    return _spawn(argv, rundir / "beat.log", env)


def start_api(env: dict[str, str], rundir: Path, host: str = "127.0.0.1", port: int | None = None,
              log: str = "api.log", tls: tuple[Path, Path] | None = None) -> tuple[subprocess.Popen, str]:
    """The API (and the built UI) under uvicorn, over TLS with `tls` = (key file, certificate file); returns
    (process, base URL)."""
    port = port or free_port()
    argv = [sys.executable, "-m", "uvicorn", "kneeboard.main:app", "--host", host, "--port", str(port), "--log-level", "warning",
            "--timeout-graceful-shutdown", "3"]  # open live streams must not hold a stop
    if tls:
        argv += ["--ssl-keyfile", str(tls[0]), "--ssl-certfile", str(tls[1])]
    proc = _spawn(argv, rundir / log, env)
    wait_port(port, proc, "the API", host=host)
    return proc, f"{'https' if tls else 'http'}://{host}:{port}"


def migrate(env: dict[str, str]) -> None:
    """Apply the Alembic migrations to the configured database."""
    done = subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"migrations failed:\n{done.stderr[-2000:]}")
