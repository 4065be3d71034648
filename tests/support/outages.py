"""Real outages for the crash-safety tests: stop Postgres, restart Redis, kill a worker, find its children.
Only processes the test suite started are touched, by PID."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from kneeboard.stack import start_redis, start_worker, stop, wait_port


def _replace(stack, name: str, new: subprocess.Popen) -> None:
    old = stack.procs[name]
    stack.started[stack.started.index(old)] = new
    stack.procs[name] = new


def postgres_down(stack, seconds: float) -> None:
    """Stop the suite's Postgres (fast shutdown: sessions are cut), wait `seconds`, start it again."""
    old = stack.procs["postgres"]
    port = int(old.args[old.args.index("-p") + 1])
    os.killpg(old.pid, signal.SIGINT)
    old.wait(timeout=30)
    time.sleep(seconds)
    log = stack.tmp / "pg" / "postgres.log"
    new = subprocess.Popen(old.args, stdout=subprocess.DEVNULL, stderr=open(log, "ab"), start_new_session=True)
    wait_port(port, new, "postgres")
    _replace(stack, "postgres", new)


def redis_restart(stack, seconds: float = 1.0) -> None:
    """Stop the suite's Redis (everything in it is lost: no persistence) and start a new one on the same port."""
    old = stack.procs["redis"]
    url = urlsplit(stack.env["REDIS_URL"])
    stop(old)
    time.sleep(seconds)
    new, _url = start_redis(stack.tmp, url.port, password=url.password)
    _replace(stack, "redis", new)


def agent(stack, name: str) -> subprocess.Popen:
    """Another worker process with its own agent name and queue (ended by the fixture)."""
    rundir = stack.tmp / f"agent-{name}"
    proc = start_worker({**stack.env, "AGENT_NAME": name}, rundir)
    stack.started.append(proc)
    return proc


def descendants(pid: int) -> list[int]:
    """Every living process below `pid` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def command(pid: int) -> str:
    """A process's command name."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""
