"""`kneeboard agent --observe`: an observer on the server under test. It registers and beats like a load agent (the
same clock offset), takes its observe assignments by long-poll and acknowledges each at once. A profile's: it says
whether a process of that command name runs here, records perf over the point's steady window on the server's clock,
folds the stacks at idle priority after it and reports them through the API (nothing in an assignment but a command
name, re-validated here, and a frequency reaches perf). An assignment of events (`--actions FILE`, observers/host.py):
it fires each host action at its time, puts back what they took out when the load ends (or at the file's deadline),
and reports each. A process_cpu assignment's: it reads the named process's CPU from /proc over the load
(tools/process/read.py, as the worker's process monitor does on its own host) and reports the readings. It takes no load."""

from __future__ import annotations

import logging
import math
import os
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from pydantic import ValidationError

from kneeboard.events.actions import EventFailed
from kneeboard.observers.host import HostActions, InForce, load_config
from kneeboard.fanout.link import LinkRefused
from kneeboard.observers.actions import register_events
from kneeboard.fanout.share import AgentContext
from kneeboard.observers import readings as host_readings
from kneeboard.observers.link import ObserverLink
from kneeboard.observers.nic import HostNic, apply_all, link_interface
from kneeboard.observers.schemas import MAX_READINGS
from kneeboard.profiling import perf
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.profiling.taken import Taken, take
from kneeboard.tools.process import read as process_read

log = logging.getLogger(__name__)
BEAT_S = 1.0  # an assignment's sign of life (the server gives up on it after 3 s without one)
PROC_ROOT_ENV = "KNEEBOARD_OBSERVER_PROC"  # where the observer reads its host's /proc (recorded files in tests)
READ_TAIL_S = 30.0  # a process_cpu assignment reads at most this long past the load's planned end (the told end comes first)


def running(comm: str, proc: Path = Path("/proc")) -> bool:
    """Whether a process whose command name (/proc/PID/comm) is `comm` runs on this host."""
    for entry in proc.glob("[0-9]*/comm"):
        try:
            if entry.read_text().strip() == comm:
                return True
        except OSError:
            continue  # it ended while we looked
    return False


class HostSide:
    """What this observer may do to its host (None: nothing) and what it has taken out and not yet put back."""

    def __init__(self, actions: HostActions | None, in_force: InForce | None, nic: HostNic | None = None) -> None:
        self.actions, self.in_force, self.nic = actions, in_force, nic
        self.lock = threading.Lock()  # two points' events never interleave their changes

    @classmethod
    def from_file(cls, path: str | None) -> HostSide:
        """The actions `path` enables (ConfigRefused when it is unsafe or malformed), with what a previous run of this
        observer left in force put back now; nothing without a file. The host actions join the events catalogue here
        (the observer's start: it registers nothing else)."""
        register_events()
        if path is None:
            return cls(None, None)
        config_path = Path(path)
        actions = HostActions(load_config(config_path))
        state = config_path.with_name(f".{config_path.name}.in-force.json")
        for record in InForce.recover(state, actions):
            log.warning("put back what a previous run left in force: %s %s %s", record["action"], record["value"],
                        record.get("error") or "done")
        nic = HostNic(actions.config.nic, config_path.with_name(f".{config_path.name}.nic-in-force.json"))
        for record in nic.put_back() if nic.access else []:
            log.warning("put back a host setting a previous run left changed: %s", record)
        return cls(actions, InForce(state), nic)


def start_observing(job: dict, link: ObserverLink, ctx: AgentContext, host: HostSide) -> None:
    """Observe one assignment in a thread of its own (points may overlap; the next one must be acknowledged at once)."""
    kind = job.get("kind") or ("events" if job.get("events") else "cpu_profile")
    target, args = {"events": (act, (job, link, ctx, host)), "process_cpu": (read_cpu, (job, link, ctx)),
                    "host": (set_host, (job, link, ctx, host))}.get(kind, (observe, (job, link, ctx)))
    threading.Thread(target=target, args=args, daemon=True).start()


def _worked(job: dict, link: ObserverLink, ctx: AgentContext, what: str, work) -> None:
    """After the acknowledgement: beat while `work(stopped)` makes the report's body (any failure becomes its error:
    the worker must hear of it, not wait for its deadline), then report it."""
    stopped = threading.Event()
    threading.Thread(target=_beat, args=(link, job["id"], stopped), daemon=True).start()
    try:
        body = work(stopped)
    except Exception as exc:  # noqa: BLE001
        log.exception("%s assignment %s failed", what, job["id"])
        body = {"error": f"observer {ctx.name} failed: {type(exc).__name__}: {exc}"[:2000]}
    finally:
        stopped.set()
    try:
        link.report(job["id"], body)
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("the report of %s assignment %s was not accepted: %s", what, job["id"], exc)


def set_host(job: dict, link: ObserverLink, ctx: AgentContext, host: HostSide) -> None:
    """A host assignment (a variant's host settings, or putting them back): acknowledge, apply each as this host's
    actions file allows (observers/nic.py: typed values, this module's own commands), read the facts, report."""
    try:
        link.acknowledge(job["id"], None)
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("host assignment %s not taken: %s", job["id"], exc)
        return
    nic = host.nic or HostNic(None, Path(os.devnull))
    if nic.link_dev is None:
        nic.link_dev = link_interface(link.http.base_url.host)

    def work(_stopped: threading.Event) -> dict:
        with host.lock:
            return {"host": apply_all(nic, job["settings"])}

    _worked(job, link, ctx, "host", work)


def read_cpu(job: dict, link: ObserverLink, ctx: AgentContext) -> None:
    """A process_cpu assignment: acknowledge (saying whether a process of that name runs here), read every process of
    that name from /proc (tools/process/read.py) at the load's start, every second, at its planned end, and once more
    when told it ended (at most READ_TAIL_S past its planned end), then report the readings, times on the server's clock."""
    try:
        name = CpuProfileSettings(process=job["process"]).process  # re-validated here: a command name, nothing else
        link.acknowledge(job["id"], running(name))
    except (ValidationError, LinkRefused, httpx.HTTPError) as exc:
        log.error("process CPU assignment %s not taken: %s", job["id"], exc)
        return

    def work(stopped: threading.Event) -> dict:
        process_cpu, host_seconds = _read_cpu(name, job, ctx, stopped)
        return {"process_cpu": process_cpu, "host_seconds": host_seconds}

    _worked(job, link, ctx, "process CPU", work)


def _read_cpu(name: str, job: dict, ctx: AgentContext, stopped: threading.Event) -> tuple[list[dict], list[dict]]:
    """The readings of one process_cpu assignment (read_cpu), spaced out to stay within MAX_READINGS."""
    offset = ctx.offset_s
    start, until = job["start_at"] - offset, job["until"] - offset
    interval = max(1.0, float(math.ceil((until - start + READ_TAIL_S) / (MAX_READINGS - 3))))
    reader, readings, known = process_read.Job(name), [], None
    host = HostReader(os.environ.get(PROC_ROOT_ENV, "/proc"))
    for at in _reading_times(start, until, interval):
        if stopped.wait(max(0.0, at - time.time())):
            break  # told the load ended: the last reading now
        line, known = process_read.reading(reader, known)
        readings.append(line | {"t": round(line["t"] + offset, 4)})
        host.read()
    line, known = process_read.reading(reader, known)
    host.read()
    return readings + [line | {"t": round(line["t"] + offset, 4)}], host.seconds


class HostReader:
    """The observer's own readings of its host beside the process's (observers/readings.py), from a /proc root."""

    def __init__(self, root: str) -> None:
        self.root, self.last, self.seconds = root, None, []

    def read(self) -> None:
        """Take a snapshot; from the second on, keep the figures since the one before (none when /proc/stat is unread)."""
        now = host_readings.snapshot(self.root, time.monotonic())
        if self.last is not None and now.ticks and now.t > self.last.t and len(self.seconds) < MAX_READINGS:
            self.seconds.append(host_readings.between(self.last, now))
        self.last = now


def _reading_times(start: float, until: float, interval: float) -> list[float]:
    """When to read (this host's clock): the load's start, every interval, its planned end, then every interval for
    at most READ_TAIL_S (the worker keeps those up to the load's real end)."""
    inside = [start + k * interval for k in range(int((until - start) / interval) + 1) if start + k * interval < until]
    return inside + [until + k * interval for k in range(int(READ_TAIL_S / interval))]


def act(job: dict, link: ObserverLink, ctx: AgentContext, host: HostSide) -> None:
    """An assignment of events: acknowledge, fire each at its time on this host's clock (beating meanwhile), put back
    what they took out at the load's end or the file's deadline, report each."""
    try:
        link.acknowledge(job["id"], None)
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("event assignment %s not taken: %s", job["id"], exc)
        return
    stopped = threading.Event()
    threading.Thread(target=_beat, args=(link, job["id"], stopped), daemon=True).start()
    teller = ThreadPoolExecutor(1, thread_name_prefix="observer-told")  # in order, and never delaying the next event
    try:
        records, reverted = _act(job, ctx, host, stopped, lambda record: teller.submit(_tell, link, job["id"], record))
        link.report(job["id"], {"events": records, "reverted": reverted})
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("the events of assignment %s were not accepted: %s", job["id"], exc)
    finally:
        stopped.set()
        teller.shutdown(wait=False)


def _tell(link: ObserverLink, assignment_id: int, record: dict) -> None:
    """Tell one event's state for the live stream (a failure is logged: the report is what is stored)."""
    try:
        link.tell(assignment_id, record)
    except (LinkRefused, httpx.HTTPError) as exc:
        log.warning("event assignment %s: telling %s failed: %s", assignment_id, record["action"], exc)


def _act(job: dict, ctx: AgentContext, host: HostSide, stopped: threading.Event, tell) -> tuple[list[dict], list[dict]]:
    offset, start = ctx.offset_s, job["start_at"] - ctx.offset_s
    records, first = [], None
    for event in sorted(job["events"], key=lambda e: e["at_s"]):
        record = {**event}
        if stopped.wait(max(0.0, start + event["at_s"] - time.time())):
            records.append(record | {"t": time.time() + offset, "error": "not fired: the point's load ended first"})
            continue
        record["t"] = time.time() + offset
        tell(dict(record))
        first = first or time.time()
        refusal = ("this observer has no actions file (start it with --actions FILE)" if host.actions is None
                   else host.actions.refusal(event["action"], event["value"]))
        if refusal:
            record["error"] = refusal
        else:
            with host.lock:
                noted = host.in_force.note(event["action"], event["value"])  # before: a kill -9 mid-action loses nothing
                try:
                    facts = host.actions.apply(event["action"], event["value"])
                    record.update({k: v + offset if k == "listening" else v for k, v in facts.items()})  # server's clock
                except EventFailed as exc:
                    host.in_force.unnote(noted)
                    record["error"] = str(exc)
        record["done"] = time.time() + offset
        records.append(record)
        tell(dict(record))
    if host.actions is None:
        return records, []
    deadline = min(job["until"] - offset, (first or time.time()) + host.actions.config.max_in_force_s)
    stopped.wait(max(0.0, deadline - time.time()))
    with host.lock:
        reverted = host.in_force.put_back(host.actions)
    return records, [{k: v + offset if k in ("t", "listening") else v for k, v in r.items()} for r in reverted]


def observe(job: dict, link: ObserverLink, ctx: AgentContext) -> None:
    """One assignment: acknowledge, record over its window (beating meanwhile), fold, report."""
    try:
        settings = CpuProfileSettings(process=job["process"], frequency_hz=job["frequency_hz"])
        link.acknowledge(job["id"], running(settings.process))
    except (ValidationError, LinkRefused, httpx.HTTPError) as exc:
        log.error("observe assignment %s not taken: %s", job["id"], exc)
        return
    log.info("observing point %s: %s at %s Hz", job["point_id"], settings.process, settings.frequency_hz)
    stopped = threading.Event()
    beats = threading.Thread(target=_beat, args=(link, job["id"], stopped), daemon=True)
    beats.start()
    workdir = ctx.workdir / f"observe-{job['id']}"
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        taken = _profile(job, settings, workdir, ctx, stopped)
        if not stopped.is_set():
            link.report(job["id"], _body(taken))
    except (LinkRefused, httpx.HTTPError) as exc:
        log.error("the profile of observe assignment %s was not accepted: %s", job["id"], exc)
    except Exception as exc:  # noqa: BLE001 - the worker must hear of any failure, not wait for its deadline
        log.exception("observe assignment %s failed", job["id"])
        link.report(job["id"], {"error": f"observer {ctx.name} failed: {type(exc).__name__}: {exc}"[:2000]})
    finally:
        stopped.set()
        shutil.rmtree(workdir, ignore_errors=True)


def _profile(job: dict, settings: CpuProfileSettings, workdir: Path, ctx: AgentContext, stopped: threading.Event) -> Taken:
    """perf over the window, its times turned to this host's clock (server clock − offset), stopped early if told."""
    now = time.time()
    since, until = job["since"] - ctx.offset_s, job["until"] - ctx.offset_s
    begin = max(since, now)
    if until - begin < perf.MIN_WINDOW_S:
        return Taken(error=f"observer {ctx.name} took the assignment too late for its steady window")
    recording = perf.Recording(settings, workdir, begin - now, until - begin)
    recording.start()
    if stopped.wait(until - time.time() + 0.5):
        recording.stop()
        recording.data.unlink(missing_ok=True)
        return Taken(error="stopped: the point is over")
    return take(recording, recording.stop())


def _body(taken: Taken) -> dict:
    return {"profile": taken.row, "error": taken.error, "seen": [list(s) for s in taken.seen], "fold_s": round(taken.fold_s, 3)}


def _beat(link: ObserverLink, assignment_id: int, stopped: threading.Event) -> None:
    """Renew the assignment's sign of life every BEAT_S; set `stopped` when the API says the point is over."""
    while not stopped.wait(BEAT_S):
        try:
            reason = link.assignment_alive(assignment_id)
        except (LinkRefused, httpx.HTTPError) as exc:
            log.warning("observe assignment %s: sign of life failed: %s", assignment_id, exc)
            continue
        if reason:
            log.info("observe assignment %s stopped: %s", assignment_id, reason)
            stopped.set()
