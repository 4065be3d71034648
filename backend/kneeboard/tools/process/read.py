"""The process monitor's process: read a server's CPU from /proc at its start, every INTERVAL seconds and at its end.

    python -m kneeboard.tools.process.read NAME INTERVAL DURATION [--netns PATH] [--port N]

NAME is the server's command name (comm, as /proc/PID/stat shows it, at most 15 characters); every process of that
name is read (a master and its workers), in the network namespace PATH names when given (/run/netns/kblab for the
lab; /proc/self/ns/net: this host's own, where a loopback server runs) and, with --port, only those holding a socket
on port N (a TCP listener, a bound UDP socket) with their children of that name: two servers of one name
in one namespace (the lab's two CoreDNS, its two nginx) are told apart by the target's port. /proc is scanned again at every reading, so a
process that starts during the point (a reload's new workers) is found. Prints one JSON line per reading:

    {"t": epoch, "boot_s": s since boot, "process": NAME, "procs": [[pid, start_s, cpu_s, wait_s], ...],
     "host": {"busy_s": s, "total_s": s, "cpus": n}, "usable": {...}}

cpu_s is utime + stime of the process (every thread, /proc/PID/stat), wait_s its live threads' time waiting for a CPU
while ready to run (schedstat; None when unreadable), start_s its start in seconds since boot (a PID
with another start is another process), host the machine's CPU time from /proc/stat's `cpu` line (busy: every mode
but idle and iowait). "usable" (what the processes may use) is in the first line and in any line whose set of
processes changed. Stops at DURATION, or at SIGINT/SIGTERM (how the worker ends a monitor as its point ends), each
with a last reading. Standard library only: the first reading comes as soon as the interpreter is up.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

HZ = os.sysconf("SC_CLK_TCK")
BUSY_FIELDS = (0, 1, 2, 5, 6, 7)  # /proc/stat cpu: user nice system idle iowait irq softirq steal (guest is in user)
TOTAL_FIELDS = tuple(range(8))
MAX_DURATION_S = 86_400.0


class Stopped(Exception):
    """SIGINT or SIGTERM arrived: take the last reading and end."""


def proc_stat(pid: int | str) -> tuple[str, float, float, int] | None:
    """(comm, start_s since boot, utime + stime in s, parent PID) of a process from /proc/PID/stat; None when gone,
    a zombie among them (ended, its parent has not reaped it: no sockets, no namespace, no more CPU)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read().decode(errors="replace")
    except OSError:
        return None
    close = text.rfind(")")
    fields = text[close + 2 :].split()  # fields[0] is field 3 (state)
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return text[text.find("(") + 1 : close], int(fields[19]) / HZ, (int(fields[11]) + int(fields[12])) / HZ, int(fields[1])


def netns_id(path: str) -> tuple[int, int] | None:
    """The network namespace a path names (/run/netns/NAME, /proc/PID/ns/net) as (device, inode); None if unreadable."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def scan(name: str, netns: tuple[int, int] | None, port: int | None = None,
         holders: dict[tuple[int, float], bool] | None = None) -> list[list[float]]:
    """[[pid, start_s, cpu_s], ...] of every process named `name` (in namespace `netns` when given; with `port`: those
    holding a socket on that port and their children of the same name — a master and its workers).
    `holders` caches the processes found holding such a socket (a holder's sockets are read once; another's again at
    every scan, so a server that binds after a reading is found at the next)."""
    found: dict[int, tuple[float, float, int]] = {}  # pid → (start_s, cpu_s, parent)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = proc_stat(entry)
        if stat is None or stat[0] != name:
            continue
        if netns is not None and netns_id(f"/proc/{entry}/ns/net") not in (netns, None):
            continue  # another namespace's server of the same name (a backend nginx, the host's own unbound)
        found[int(entry)] = stat[1:]
    if port is not None and found:
        keep = _on_port(found, port, holders if holders is not None else {})
        found = {pid: found[pid] for pid in keep}
    return sorted([pid, round(start, 2), round(cpu, 2), runqueue_wait_s(pid)] for pid, (start, cpu, _) in found.items())


def runqueue_wait_s(pid: int) -> float | None:
    """Seconds the process's live threads spent ready to run but waiting for a CPU (/proc/PID/task/*/schedstat, second
    field), None when unreadable: beside its CPU time, a server starved by others on its CPUs shows here."""
    total, read = 0, False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total += int(schedstat.read().split()[1])
                read = True
        except (OSError, IndexError, ValueError):
            continue
    return round(total / 1e9, 4) if read else None


def _on_port(found: dict[int, tuple[float, float, int]], port: int, holders: dict[tuple[int, float], bool]) -> set[int]:
    """The processes of `found` that hold a socket on `port` (a TCP listener or a bound UDP socket; unknown when their
    sockets cannot be read: counted), with their children among `found`. The sockets on the port are read per network
    namespace, from a process of it whose tables can be read (one that cannot is no reading of its namespace's)."""
    tables: dict[tuple[int, int] | None, set[str]] = {}  # namespace → inodes of the sockets on `port` there
    keep = set()
    for pid, (start, _, _) in found.items():
        if not holders.get((pid, start)):
            space = netns_id(f"/proc/{pid}/ns/net")
            if space not in tables and (inodes := _port_inodes(pid, port)) is not None:
                tables[space] = inodes
            holders[(pid, start)] = space not in tables or _holds(pid, tables[space])
        if holders[(pid, start)]:
            keep.add(pid)
    grown = True
    while grown:  # a worker started by one of them (not its parent: a generic name's parent may be anything)
        children = {pid for pid, (_, _, parent) in found.items() if parent in keep}
        grown = not children <= keep
        keep |= children
    return keep


def _port_inodes(pid: int, port: int) -> set[str] | None:
    """Inodes of the sockets bound to `port` in the process's network namespace (/proc/PID/net/{tcp,udp}{,6}: TCP
    listeners, any UDP socket); None when none of its tables can be read (it ended, or /proc hides them)."""
    inodes: set[str] | None = None
    for table in ("tcp", "tcp6", "udp", "udp6"):
        try:
            with open(f"/proc/{pid}/net/{table}") as sockets:
                rows = sockets.read().splitlines()[1:]
        except OSError:
            continue
        inodes = inodes if inodes is not None else set()
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and int(fields[1].rsplit(":", 1)[1], 16) == port and (table.startswith("udp") or fields[3] == "0A"):
                inodes.add(fields[9])
    return inodes


def _holds(pid: int, inodes: set[str]) -> bool:
    """Whether the process holds one of the sockets (True when its file descriptors cannot be read)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return True
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:[") and link[8:-1] in inodes:
            return True
    return False


def host_cpu() -> dict[str, float]:
    """The machine's busy and total CPU seconds since boot (/proc/stat's `cpu` line) and its CPU count."""
    with open("/proc/stat") as stat:
        lines = stat.read().splitlines()
    ticks = [int(v) for v in lines[0].split()[1:]]
    return {"busy_s": round(sum(ticks[i] for i in BUSY_FIELDS if i < len(ticks)) / HZ, 2),
            "total_s": round(sum(ticks[i] for i in TOTAL_FIELDS if i < len(ticks)) / HZ, 2),
            "cpus": sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())}


def affinity(pid: int) -> list[int] | None:
    """The CPUs the process may run on (sched_getaffinity), None if it is gone."""
    try:
        return sorted(os.sched_getaffinity(pid))
    except OSError:
        return None


def gomaxprocs(pid: int) -> int | None:
    """GOMAXPROCS from the process's environment (/proc/PID/environ), None when unset or unreadable."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            entries = environ.read().split(b"\0")
    except OSError:
        return None
    value = next((e[len(b"GOMAXPROCS="):] for e in entries if e.startswith(b"GOMAXPROCS=")), None)
    return int(value) if value and value.isdigit() and int(value) > 0 else None


def _mounts() -> dict[str, str]:
    """Where each cgroup hierarchy is mounted: "" → the cgroup v2 mount, each v1 controller → its mount."""
    found: dict[str, str] = {}
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            _, where, kind, options, *_ = line.split()
            if kind == "cgroup2":
                found.setdefault("", where)
            elif kind == "cgroup":
                for option in options.split(","):
                    found.setdefault(option, where)
    return found


def _quota_v2(folder: str) -> float | None:
    try:
        with open(os.path.join(folder, "cpu.max")) as limit:
            quota, period = limit.read().split()
    except (OSError, ValueError):
        return None
    return None if quota == "max" else int(quota) / int(period)


def _quota_v1(folder: str) -> float | None:
    try:
        with open(os.path.join(folder, "cpu.cfs_quota_us")) as q, open(os.path.join(folder, "cpu.cfs_period_us")) as p:
            quota, period = int(q.read()), int(p.read())
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def cgroup_quota(pid: int, mounts: dict[str, str]) -> tuple[float, str] | None:
    """The tightest CPU quota of the process's cgroup and its parents (v2 cpu.max, v1 cpu.cfs_quota_us) in CPUs, with
    the cgroup that sets it; None when none is set or none is readable."""
    try:
        with open(f"/proc/{pid}/cgroup") as cgroups:
            lines = cgroups.read().splitlines()
    except OSError:
        return None
    tightest: tuple[float, str] | None = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        mount = mounts.get("") if controllers == "" else mounts.get("cpu") if "cpu" in controllers.split(",") else None
        if mount is None:
            continue
        read = _quota_v2 if controllers == "" else _quota_v1
        parts = [p for p in path.split("/") if p]
        for depth in range(len(parts), -1, -1):
            folder = os.path.join(mount, *parts[:depth])
            quota = read(folder)
            if quota is not None and (tightest is None or quota < tightest[0]):
                tightest = (quota, folder)
    return tightest


def usable(pids: list[int]) -> dict[str, Any]:
    """What the processes may use: the CPUs of their affinity masks (together), their cgroups' quota (the sum over
    their distinct cgroups, when each has one), GOMAXPROCS (the sum, when every process sets it); `cpus` the least."""
    mounts = _mounts()
    masks = [m for m in (affinity(p) for p in pids) if m is not None]
    quotas = [cgroup_quota(p, mounts) for p in pids]
    procs = [gomaxprocs(p) for p in pids]
    cpus = sorted({c for mask in masks for c in mask})
    distinct = {q[1]: q[0] for q in quotas if q is not None}
    found: dict[str, Any] = {
        "affinity": cpus or None,
        "cgroup_cpus": round(sum(distinct.values()), 3) if distinct and all(quotas) else None,
        "cgroups": sorted(distinct) or None,
        "gomaxprocs": sum(procs) if procs and all(procs) else None,  # type: ignore[arg-type]
    }
    limits = [(len(cpus), f"affinity mask (CPUs {','.join(map(str, cpus))})")] if cpus else []
    if found["cgroup_cpus"] is not None:
        limits.append((found["cgroup_cpus"], f"cgroup CPU quota ({', '.join(found['cgroups'])})"))
    if found["gomaxprocs"] is not None:
        limits.append((found["gomaxprocs"], f"GOMAXPROCS={found['gomaxprocs']} in its environment"))
    least = min(limits, key=lambda limit: limit[0]) if limits else None
    return {**found, "cpus": least[0] if least else None, "source": least[1] if least else None}


def reading(job: Job, known: set[tuple[int, float]] | None) -> tuple[dict, set]:
    """One reading (the line to print) and the processes it found; `usable` is in it when the set changed."""
    procs = scan(job.name, job.netns, job.port, job.holders)
    name = job.name
    line: dict[str, Any] = {"t": round(time.time(), 4), "boot_s": round(time.clock_gettime(time.CLOCK_BOOTTIME), 3),
                            "process": name, "procs": procs, "host": host_cpu()}
    found = {(int(p[0]), p[1]) for p in procs}
    if found != known:
        line["usable"] = usable([int(p[0]) for p in procs])
    return line, found


def _print(line: dict) -> None:
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _stop(signum: int, frame: object) -> None:
    raise Stopped


@dataclass
class Job:
    """What the reader reads: the command name, its namespace and port when given, the socket holders found so far."""

    name: str
    netns: tuple[int, int] | None = None
    port: int | None = None
    holders: dict[tuple[int, float], bool] = field(default_factory=dict)


def run(job: Job, interval_s: float, duration_s: float) -> None:
    """Read at once, then every interval_s until duration_s has passed or a signal came; a last reading at the end."""
    start, count, known = time.monotonic(), 0, None
    try:
        while True:
            line, known = reading(job, known)
            _print(line)
            count += 1
            if time.monotonic() - start >= duration_s:
                return
            time.sleep(max(0.0, min(start + count * interval_s, start + duration_s) - time.monotonic()))
    except Stopped:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _print(reading(job, known)[0])


def read_args(argv: list[str]) -> tuple[Job, float, float]:
    """NAME INTERVAL DURATION [--netns PATH] [--port N], checked; ValueError saying what is wrong."""
    if len(argv) < 3:
        raise ValueError("NAME INTERVAL DURATION are needed")
    name, interval, duration, *rest = argv
    interval_s, duration_s = float(interval), float(duration)
    if not (0 < len(name) <= 15 and 0.1 <= interval_s <= 60 and 0 < duration_s <= MAX_DURATION_S):
        raise ValueError("NAME is 1..15 characters, INTERVAL 0.1..60 s, DURATION 0..86400 s")
    options = dict(zip(rest[::2], rest[1::2]))
    if len(rest) % 2 or not set(options) <= {"--netns", "--port"}:
        raise ValueError("the options are --netns PATH and --port N")
    job = Job(name, netns_id(options["--netns"]) if "--netns" in options else None)
    if "--netns" in options and job.netns is None:
        raise ValueError(f"cannot read the network namespace {options['--netns']}")
    if "--port" in options:
        job.port = int(options["--port"])
        if not 1 <= job.port <= 65_535:
            raise ValueError("--port is 1..65535")
    return job, interval_s, duration_s


def main(argv: list[str]) -> int:
    """Entry point: NAME INTERVAL DURATION [--netns PATH] [--port N] (checked again here: it may be run by hand)."""
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)  # a process started from a shell's background job inherits it ignored
    try:
        job, interval_s, duration_s = read_args(argv)
    except (ValueError, Stopped) as exc:
        print(f"process monitor: {exc or 'stopped'}\nusage: python -m kneeboard.tools.process.read NAME INTERVAL_S "
              "DURATION_S [--netns PATH] [--port N]", file=sys.stderr)
        return 2
    try:
        run(job, interval_s, duration_s)
    except (Stopped, BrokenPipeError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
