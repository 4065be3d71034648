"""process (monitor, the server process's own CPU from /proc on this host): build the reader's argv, read its lines.

Summary (the result's extra, filed by the worker under extra.monitors["process"]):

    process          the command name read (comm), e.g. "coredns"
    pids             every PID of that name seen during the point (a master and its workers; a reload's new ones)
    cpu_s            CPU-seconds (utime + stime, every thread) of all of them between the first and the last reading,
                     exact to the clock tick (0.01 s): the evidence divides it by the point's work for the CPU per 1,000
    window_s         seconds between the first reading (the monitor's start, just before the load) and the last (its
                     stop, just after the load ended)
    cpu_pct_of_one   100 × cpu_s / window_s (100 = one CPU busy the whole window)
    runqueue_wait_s  seconds its threads were ready to run but waited for a CPU (schedstat): with cpu_s, a server at its
                     usable CPUs though others' work on them keeps it below 100 % (a shared host) shows here
    usable_cpus      how many CPUs the server may use: the least of its affinity mask (sched_getaffinity), its cgroup's
                     CPU quota where readable (v2 cpu.max, v1 cpu.cfs_quota_us) and GOMAXPROCS when its environment sets
                     it; None when none could be read
    usable_source    which of those set usable_cpus ("GOMAXPROCS=1 in its environment", "affinity mask (CPUs 0)", …)
    affinity, cgroup_cpus, gomaxprocs   each limit as read (None: none)
    host_busy_cpu_s  the whole machine's busy CPU-seconds over the same window (/proc/stat: all modes but idle and iowait)
    host_cpu_s       the machine's CPU-seconds over the window (busy + idle: window_s × CPUs), host_cpus its CPU count
    exited           processes of that name that ended during the point (their CPU after their last reading, at most
                     one interval, is not counted: a warning says so)
    readings         how many readings the window holds

The load generator's own CPU over the point is extra.harness_cpu.children_s (the worker's children: the load tool and
the monitors), so a shared host splits into server (cpu_s), generator (children_s) and other (host_busy_cpu_s − both).
The server is read on the host the worker runs on: a loopback or lab target, in the namespace serving the target's
address, the processes of that name holding its port (with their workers of that name);
a process not found is the point's warning and nothing else is lost. Series `process`: cpu_pct per interval.
A remote server is read by the observer on its host (`observer`, else the plan's cpu_profile.observer): the same
readings (read.reading) over the load, reported through the API and summarised here (from_readings), filed with
"observer" and "read_by" ("read by observer NAME") beside the summary above (observers/process_cpu.py).
"""

from __future__ import annotations

import ipaddress
import json
import pathlib
import sys
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.agents.schemas import AGENT_NAME
from kneeboard.lab_link import LAB_ADDR, NETNS
from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError
from kneeboard.tools.contract import Metric, Role, ToolAdapter

PARSER_VERSION = "1"
COMM = r"^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,14}$"  # as a plan's cpu_profile.process names a server
OWN_NETNS = "/proc/self/ns/net"  # the reader's own: the worker's, where a loopback server runs
STARTED_SLACK_S = 0.02  # a process that started this little before a reading but is absent from it is counted from zero


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The reader's lines → the summary (module docstring) and one `process` sample per interval; an error when the
    reader gave fewer than two readings or no process of its name ran."""
    readings = read_lines(stdout)
    why = units.failure_reason("process reader", stderr, exit_code) if (stderr or "").strip() or exit_code else \
        "the point ended before a second reading"
    return from_readings(readings, why)


def from_readings(readings: list[dict[str, Any]], short: str) -> PointResult:
    """Readings in time order (the reader's, or an observer's on its host) → the summary and the `process` samples;
    an error saying `short` (why) when there are fewer than two."""
    result = PointResult(parser_version=PARSER_VERSION)
    if len(readings) < 2:
        result.error = f"process: {len(readings)} reading(s), CPU needs two ({short})"
        return result
    result.extra = summarise(readings)
    result.samples = [Sample(t=after["t"], values=values, series="process")
                      for before, after in zip(readings, readings[1:]) if (values := interval_values(before, after))]
    return result


def read_lines(stdout: str) -> list[dict[str, Any]]:
    """The reader's complete readings in time order (a line cut short by the stop is left out)."""
    readings = []
    for line in (stdout or "").splitlines():
        try:
            reading = json.loads(line)
        except ValueError:
            continue
        if isinstance(reading, dict) and units.is_number(reading.get("t")) and isinstance(reading.get("procs"), list) \
                and isinstance(reading.get("host"), dict):
            readings.append(reading)
    return sorted(readings, key=lambda r: r["t"])


def used_between(before: dict[str, Any], after: dict[str, Any]) -> float:
    """CPU-seconds the processes of `after` used since `before`: each from its value then, or from zero when it started
    since (a new worker); one absent then that had already started gives nothing for this interval (its base is unknown)."""
    return _grown(before, after, 2)


def _grown(before: dict[str, Any], after: dict[str, Any], field: int) -> float:
    """How much a per-process counter (procs[field]: CPU, run-queue wait) grew between two readings (used_between)."""
    then = {(p[0], p[1]): p[field] for p in before["procs"] if len(p) > field}
    total = 0.0
    for proc in after["procs"]:
        now, key = proc[field] if len(proc) > field else None, (proc[0], proc[1])
        if not units.is_number(now):
            continue
        if key in then and units.is_number(then[key]):
            total += max(0.0, now - then[key])
        elif key not in then and proc[1] >= float(before.get("boot_s", float("inf"))) - STARTED_SLACK_S:
            total += now
    return total


def interval_values(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float | None] | None:
    """One interval's figures: cpu_pct (of one CPU), processes (how many ran at its end), host_busy_pct (all CPUs)."""
    elapsed = float(after["t"]) - float(before["t"])
    if elapsed <= 0:
        return None
    busy, total = _host_delta(before, after, "busy_s"), _host_delta(before, after, "total_s")
    return {"cpu_pct": 100.0 * used_between(before, after) / elapsed, "processes": float(len(after["procs"])),
            "host_busy_pct": 100.0 * busy / total if busy is not None and total else None}


def summarise(readings: list[dict[str, Any]]) -> dict[str, Any]:
    """The point's summary over its readings (at least two; module docstring)."""
    first, last = readings[0], readings[-1]
    cpu_s = sum(used_between(a, b) for a, b in zip(readings, readings[1:]))
    window_s = float(last["t"]) - float(first["t"])
    seen = {(p[0], p[1]) for r in readings for p in r["procs"]}
    exited = sorted(seen - {(p[0], p[1]) for p in last["procs"]})
    limits = next((r["usable"] for r in reversed(readings) if isinstance(r.get("usable"), dict) and r["procs"]), {})
    summary: dict[str, Any] = {
        "process": last.get("process"), "pids": sorted({pid for pid, _ in seen}), "cpu_s": round(cpu_s, 3),
        "runqueue_wait_s": round(sum(_grown(a, b, 3) for a, b in zip(readings, readings[1:])), 3),
        "window_s": round(window_s, 3), "cpu_pct_of_one": round(100.0 * cpu_s / window_s, 2) if window_s > 0 else None,
        "usable_cpus": limits.get("cpus"), "usable_source": limits.get("source"),
        "affinity": limits.get("affinity"), "cgroup_cpus": limits.get("cgroup_cpus"), "gomaxprocs": limits.get("gomaxprocs"),
        "host_busy_cpu_s": _rounded(_host_delta(first, last, "busy_s")),
        "host_cpu_s": _rounded(_host_delta(first, last, "total_s")), "host_cpus": last["host"].get("cpus"),
        "exited": len(exited), "readings": len(readings),
    }
    warnings = []
    if not seen:
        warnings.append("no process of that name ran on this host during the point: no server CPU for it")
    elif exited:
        warnings.append(f"{len(exited)} process(es) of that name ended during the point (PIDs "
                        f"{', '.join(str(pid) for pid, _ in exited[:5])}): what they used after their last reading, "
                        "at most one interval, is not counted")
    if warnings:
        summary["warnings"] = warnings
    return summary


def over_the_load(summary: dict[str, Any], duration_s: float) -> None:
    """Add load_s (the readings' window, but not the load tool's wait for late answers after its duration) and
    load_cpu_pct (100 × cpu_s / load_s) to a summary whose cpu_s was read (the worker's and an observer's alike)."""
    if not units.is_number(summary.get("cpu_s")):
        return
    load_s = min(float(summary.get("window_s") or 0.0), duration_s)
    summary["load_s"] = round(load_s, 3)
    summary["load_cpu_pct"] = round(100.0 * summary["cpu_s"] / load_s, 2) if load_s > 0 else None


def _host_delta(before: dict[str, Any], after: dict[str, Any], key: str) -> float | None:
    old, new = before["host"].get(key), after["host"].get(key)
    return new - old if units.is_number(old) and units.is_number(new) and new >= old else None


def _rounded(value: float | None) -> float | None:
    return round(value, 3) if value is not None else None


def is_local(host: str) -> bool:
    """Whether a target address is served from this host: loopback, or the lab's namespace."""
    if host in {"localhost", LAB_ADDR}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def netns_of(host: str) -> str:
    """The network namespace that serves a local target's address: the lab's for its address, else the worker's own."""
    return f"/run/netns/{NETNS}" if host == LAB_ADDR else OWN_NETNS


class ProcessParams(BaseModel):
    """The process monitor's parameters (the server's command name comes from the target unless given here)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="Server process monitor parameters")
    interval_s: int = Field(default=1, ge=1, le=60, title="Interval (s)")
    process: str | None = Field(default=None, pattern=COMM, title="Command name",
                                description="the server's command name (comm, as cpu_profile.process): every process of "
                                            "that name is counted; none: the target's `process`")
    observer: str | None = Field(default=None, pattern=AGENT_NAME, title="Observer",
                                 description="the observer (`kneeboard agent --observe`) on the server's host that reads it "
                                             "there (a remote server); none: this host, for loopback and lab targets, or the "
                                             "plan's cpu_profile.observer for a remote one")


class Process(ToolAdapter):
    """The server's processes beside every point, read from /proc on this host: CPU-seconds, usable CPUs, the host's CPU."""

    name, title, role = "process", "Server process CPU (/proc)", Role.MONITOR
    Params = ProcessParams
    parser_version = PARSER_VERSION
    metrics = (
        Metric("cpu_pct", "server process CPU", "% of one CPU", "lower"),
        Metric("processes", "server processes", "count"),
        Metric("host_busy_pct", "host CPU busy (all CPUs)", "%", "lower"),
    )

    def argv(self, spec: PointSpec, params: ProcessParams, workdir: pathlib.Path) -> list[str]:
        """`python -m kneeboard.tools.process.read NAME INTERVAL DURATION --netns PATH --port N` for the target's server
        (its namespace and port from the target: the documents' "process" {name, host, port})."""
        target = spec.documents.get("process") or {}
        name = params.process or target.get("name")
        if not name:
            raise ToolInputError("process: the target names no server process (its `process`) and the monitor gives none")
        host = target.get("host")
        if host is not None and not is_local(host):
            raise ToolInputError(f"process: the target {host} is not on this host (the worker reads /proc for loopback "
                                 "and lab targets only)")
        netns = ["--netns", netns_of(host)] if host is not None else []
        port = ["--port", str(target["port"])] if isinstance(target.get("port"), int) else []
        return [sys.executable, "-m", "kneeboard.tools.process.read", name, str(params.interval_s),
                f"{spec.duration_s:g}", *netns, *port]

    parse_final = staticmethod(parse)


ADAPTER = Process()
build = ADAPTER.build
