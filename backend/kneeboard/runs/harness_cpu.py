"""The CPU Kneeboard's own processes use while a point runs: the worker (this process), the API and Redis, each counted
only when it runs on this host, where it takes CPU from the load tool and from a server on the same host.

How each is found, simply and without guessing by process names:
- the worker: getrusage(RUSAGE_SELF) of the process that runs the point (its threads; not the tool, a child);
- the API: each API process writes WORKDIR/harness/api-PID.json at start (pid, start time, boot id) and removes it at
  exit; the worker shares WORKDIR when both run on one host, and counts a file only when its boot id is this kernel's
  and its PID still has the recorded start time (a stale file is removed). Its CPU comes from /proc/PID/stat;
- Redis: `INFO cpu` (used_cpu_user + used_cpu_sys) over the worker's own connection, when REDIS_URL's host is this
  host (loopback, one of its addresses, or a unix socket).
"""

from __future__ import annotations

import json
import logging
import os
import resource
import time
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import redis

from kneeboard.config import get_settings
from kneeboard.environment import on_this_host
from kneeboard.lab.processes import is_alive, start_time, stat_fields

log = logging.getLogger(__name__)
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def _boot_id() -> str:
    try:
        return Path(BOOT_ID).read_text().strip()
    except OSError:
        return ""


def _registry() -> Path:
    return Path(get_settings().workdir) / "harness"


def register_api() -> Path | None:
    """Write this API process's pid file (None if WORKDIR cannot be written: its CPU is then not counted)."""
    path = _registry() / f"api-{os.getpid()}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"pid": os.getpid(), "started": start_time(os.getpid()), "boot_id": _boot_id()}))
    except OSError as exc:
        log.warning("the API's CPU will not be counted per point: cannot write %s: %s", path, exc)
        return None
    return path


def with_api_pid(inner):
    """A FastAPI lifespan that keeps this API's pid file (register_api) for as long as `inner` runs."""

    @asynccontextmanager
    async def lifespan(app):
        path = register_api()
        try:
            async with inner(app):
                yield
        finally:
            if path is not None:
                path.unlink(missing_ok=True)

    return lifespan


def api_pids() -> list[int]:
    """The PIDs of the API processes running on this host (their pid files), stale files removed."""
    pids, boot = [], _boot_id()
    for path in sorted(_registry().glob("api-*.json")):
        try:
            entry = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if entry.get("boot_id") != boot:
            continue  # another host's (a shared WORKDIR) or before a reboot: not ours to judge
        if is_alive(entry.get("pid"), entry.get("started")):
            pids.append(int(entry["pid"]))
        else:
            path.unlink(missing_ok=True)
    return pids


def process_cpu_s(pid: int) -> float | None:
    """utime + stime of a process (/proc/PID/stat fields 14 and 15) in seconds; None if it is gone."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else None


@lru_cache
def _redis() -> redis.Redis | None:
    """A client of the broker's Redis when it runs on this host, else None."""
    url = get_settings().redis_url
    parts = urlsplit(url)
    here = parts.scheme == "unix" or on_this_host(parts.hostname or "localhost")
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2) if here else None


def redis_cpu_s() -> float | None:
    """Redis's own CPU seconds (INFO cpu: used_cpu_user + used_cpu_sys) when it runs on this host; else None."""
    client = _redis()
    if client is None:
        return None
    try:
        info = client.info("cpu")
    except redis.RedisError:
        return None
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _rusage_cpu_s(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


class Meter:
    """Reads every counter at the start of a point; `used()` gives what each spent since (seconds)."""

    def __init__(self) -> None:
        self.wall, self.worker, self.children = time.monotonic(), _rusage_cpu_s(), _rusage_cpu_s(resource.RUSAGE_CHILDREN)
        self.api = {pid: process_cpu_s(pid) for pid in api_pids()}
        self.redis = redis_cpu_s()

    def used(self) -> dict:
        """{"worker_s", "children_s" (the worker's children that ended since: the load tool and the monitors, the load
        generator's CPU), "api_s" (every API process here; None when none is known), "api_processes", "redis_s" (None
        when Redis runs elsewhere or did not answer), "wall_s"}, seconds rounded to milliseconds."""
        api = [after - self.api[pid] for pid in self.api if self.api[pid] is not None and (after := process_cpu_s(pid)) is not None]
        redis_now = redis_cpu_s() if self.redis is not None else None
        return {
            "worker_s": round(_rusage_cpu_s() - self.worker, 3),
            "children_s": round(_rusage_cpu_s(resource.RUSAGE_CHILDREN) - self.children, 3),
            "api_s": round(sum(api), 3) if api else None,
            "api_processes": len(api),
            "redis_s": round(redis_now - self.redis, 3) if redis_now is not None else None,
            "wall_s": round(time.monotonic() - self.wall, 3),
        }
