"""Server processes the lab starts: identity by PID + start time, probes, stopping by PID, the state file."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command name (the first is field 3, the state); None if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2 :].split()


def start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot, /proc/PID/stat field 22); None if gone or a zombie."""
    fields = stat_fields(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def is_alive(pid: int | None, started: int | None) -> bool:
    """True if PID still runs and is the same process (its start time matches the recorded one)."""
    if not pid:
        return False
    now = start_time(pid)
    return now is not None and (started is None or now == started)


def parent_pid(pid: int) -> int | None:
    """The parent's PID (/proc/PID/stat field 4), None if gone."""
    fields = stat_fields(pid)
    return int(fields[1]) if fields else None


def process_name(pid: int) -> str | None:
    """The process's command name (/proc/PID/comm), None if gone."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def argv_option(pid: int | None, started: int | None, flag: str) -> str | None:
    """The value after `flag` in the process's argv (/proc/PID/cmdline), None if it is gone or has no such flag."""
    if not is_alive(pid, started):
        return None
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    return next((value.decode() for option, value in zip(argv, argv[1:]) if option == flag.encode()), None)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def stop(pid: int, started: int | None, timeout_s: float = 5.0) -> None:
    """SIGTERM the process (only if it is still the recorded one), wait, then SIGKILL; reap it if it is our child."""
    if not is_alive(pid, started):
        _reap(pid)
        return
    for sig, wait_s in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 2.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            _reap(pid)
            if start_time(pid) is None:
                return
            time.sleep(0.05)


def tcp_answers(host: str, port: int, timeout_s: float = 0.5) -> bool:
    """True if a TCP connection to host:port is accepted."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except OSError:
        return False


# How often a starting server is tried: when a backend listened again is stamped by the try that found it (a failover's
# recovery time is read from that stamp), so it is late by up to this much
PROBE_EVERY_S = 0.02


def wait_tcp(host: str, port: int, proc: subprocess.Popen | None = None, timeout_s: float = 10.0) -> None:
    """Wait until host:port accepts TCP connections (tried every PROBE_EVERY_S); raise RuntimeError if proc exits or
    time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode}")
        if tcp_answers(host, port, 0.3):
            return
        time.sleep(PROBE_EVERY_S)
    raise RuntimeError(f"nothing accepts TCP on {host}:{port} within {timeout_s:.0f} s")


def spawn(argv: list[str], log_path: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start a long-running server in a process group of its own, stdout+stderr to log_path (env: the whole environment).

    A group, not a session: a new session is a new scheduling autogroup when `kernel.sched_autogroup_enabled=1`, and
    the server would then share the CPUs with a load tool on this host group against group. Not the terminal's
    foreground group either, so a Ctrl-C typed there does not reach it; it is ended by PID (`stop`)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, process_group=0, env=env)


def load_state(path: Path) -> dict:
    """The lab's state file ({"workdir", "services": {name: record}}), {} if absent or unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_state(path: Path, state: dict) -> None:
    """Write the state file atomically (readable by everyone, so a non-root API can show the lab)."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o755, parents=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=2))
    os.chmod(tmp, 0o644)
    tmp.replace(path)
