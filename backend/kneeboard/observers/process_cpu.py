"""A remote server's process CPU, read by the observer on its host (the worker's process monitor reads loopback and
lab servers from /proc on its own host: tools/process). As the point's load begins the observer is assigned the load's
window (a process_cpu assignment, acknowledged before the load starts); it reads every process of the server's command
name from /proc there (observers/agent.py read_cpu) and reports the readings after the load. The worker keeps those
taken up to the load's end + GRACE_S (a later one is dropped), summarises them as the process monitor does
(tools/process/adapter.from_readings) and files the summary under extra.monitors["process"], marked "read by observer
NAME". Nothing here fails or holds a point: a problem is a warning, the wait for the report is bounded
(observers/service.await_report)."""

from __future__ import annotations

import time

from kneeboard.campaigns.models import Point
from kneeboard.db import session_scope
from kneeboard.observers import readings as host_readings
from kneeboard.observers import service as observing
from kneeboard.retry import retrying
from kneeboard.tools.base import PointResult
from kneeboard.tools.process.adapter import from_readings, is_local, over_the_load

PREFIX = "server process CPU"
GRACE_S = 1.5  # a reading this long past the load's end is still the load's (the observer hears of the end at its next
# beat, within a second, and reads then: the CPU of the load's last moments is in it); later ones are dropped


def _process_monitor(plan: dict) -> dict | None:
    return next((m for m in plan.get("monitors") or [] if m.get("kind") == "process"), None)


def observer_of(plan: dict, target: dict) -> str | None:
    """The observer that reads the server's process on its host: the plan's process monitor's `observer`, else for a
    remote target the plan's cpu_profile.observer; None: read on this host (loopback, lab) or not at all."""
    monitor = _process_monitor(plan)
    if monitor is not None and monitor.get("observer"):
        return monitor["observer"]
    if target.get("host") is None or is_local(target["host"]):
        return None
    return (plan.get("cpu_profile") or {}).get("observer")


def process_of(plan: dict, target: dict) -> str | None:
    """The server's command name: the plan's process monitor's `process`, else the target's."""
    return (_process_monitor(plan) or {}).get("process") or target.get("process")


def where_read(plan: dict, target: dict) -> str | None:
    """One line for the campaign's environment: where the server process's CPU is read, or why it is not (no
    observer on a remote server's host); None when neither the target nor the plan names a server process."""
    name = process_of(plan, target)
    if not name:
        return None
    if observer := observer_of(plan, target):
        return f"{name}: read by observer {observer} on the server's host"
    host = target.get("host")
    if host is None or is_local(host):
        return f"{name}: read from /proc on this host"
    return (f"{name}: not read, no observer on its host ({host} is not this host; a plan names one in cpu_profile.observer "
            "or its process monitor's observer)")


class ObservedProcess:
    """One point's server process CPU as its observer reads it: a context around the load, then file()."""

    def __init__(self, point_id: int, observer: str | None, process: str | None, duration_s: float) -> None:
        self.point_id, self.observer, self.process, self.duration_s = point_id, observer, process, duration_s
        self.assignment: int | None = None
        self.warnings: list[str] = []
        self.load_ended = 0.0

    def __enter__(self) -> ObservedProcess:
        if self.observer and self.process:  # enter it last: the load starts as this returns (the window's start)
            self.assignment, self.warnings = observing.assign(self.point_id, self.observer, 0.0, self.duration_s,
                                                              what=PREFIX, process=self.process)
        return self

    def __exit__(self, *_exc) -> None:
        self.load_ended = time.time()
        if self.assignment is not None:
            observing.end_load(self.assignment)

    def file(self, result: PointResult) -> list[str]:
        """Wait (bounded) for the observer's readings and file their summary and samples on the result; the warnings."""
        if self.assignment is None:
            return self.warnings
        report, why = observing.await_report(self.assignment, self.load_ended, whole_window=False)
        if report is None or report.error:
            return self.warnings + [f"{PREFIX} not read: {why or report.error}"]
        kept = [r.model_dump(exclude_none=True) for r in report.process_cpu if r.t <= self.load_ended + GRACE_S]
        read = from_readings(kept, f"observer {self.observer} gave {len(report.process_cpu)}, {len(kept)} within the load")
        if read.error:
            return self.warnings + [f"{PREFIX} (observer {self.observer}): {read.error}"]
        over_the_load(read.extra, self.duration_s)
        own = read.extra.pop("warnings", [])
        read.extra |= {"observer": self.observer, "read_by": f"read by observer {self.observer}",
                       "dropped_readings": len(report.process_cpu) - len(kept)}
        result.extra.setdefault("monitors", {})["process"] = read.extra
        if report.host_seconds:  # the server host's own CPUs, NET_RX and drops, as the observer read them there
            seconds = [s.model_dump() for s in report.host_seconds]
            result.extra["monitors"]["observer"] = host_readings.summary(seconds, self.observer)
        result.samples += read.samples
        return self.warnings + [f"monitor process (read by observer {self.observer}): {w}" for w in own]


def beside(point_id: int, duration_s: float, refused: str | None) -> ObservedProcess:
    """The point's server process CPU read by its observer when a remote server has one (else a context that does
    nothing: the process monitor reads a local server, and a remote one without an observer is said once, in the
    campaign's environment: where_read)."""
    plan, target = retrying(lambda: _frozen(point_id), "reading the point's plan and target")
    observer = None if refused else observer_of(plan, target)
    return ObservedProcess(point_id, observer, process_of(plan, target), duration_s)


def _frozen(point_id: int) -> tuple[dict, dict]:
    """The campaign's plan and target as launched."""
    with session_scope() as session:
        campaign = session.get(Point, point_id).campaign
        return dict(campaign.plan), dict(campaign.target)
