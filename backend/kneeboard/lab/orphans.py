"""What a worker's lab events took out and have not yet put back (a backend stopped, a server disabled or drained),
kept beside the lab's state file with the worker's PID and start time: after the point the worker puts it back itself
(restore); a worker killed mid-point cannot, so the next worker to start puts back what a process that
is gone left (as impairments are: lab.impair.clear_orphaned). A live worker's is left alone: it may be mid-point."""

from __future__ import annotations

import os
import threading

from kneeboard.events.actions import ACTIONS, EventFailed
from kneeboard.lab import backends, processes
from kneeboard.lab.namespace import STATE_FILE

BACKENDS = tuple(backends.name(i) for i in backends.indexes())  # b1, b2, b3
UNDO = {"lab.haproxy_disable": "lab.haproxy_enable", "lab.caddy_disable": "lab.caddy_enable", "lab.nginx_down": "lab.nginx_up"}  # else a stop's undo is a start
FILE = STATE_FILE.with_name("kneeboard-lab-taken-out.json")
_lock = threading.RLock()  # a registered lab action notes itself (lab/events.py), also when put_back_orphaned runs it


def _undo(action: str) -> str:
    return UNDO.get(action, "lab.backend_start")


def note(action: str, value: str) -> None:
    """A lab action on `value` was done: a stop is recorded with its undo and this process; a start or enable clears it."""
    found = ACTIONS[action]
    if found.runs_on != "worker" or not (found.stops or found.starts) or not action.startswith("lab."):
        return
    with _lock:
        taken = processes.load_state(FILE)
        if found.stops:
            taken[f"{_undo(action)} {value}"] = {"pid": os.getpid(), "started": processes.start_time(os.getpid())}
        else:
            taken.pop(f"{action} {value}", None)
        processes.save_state(FILE, taken)


def restore(fired: list[dict]) -> list[str]:
    """After the point: every backend an event left stopped or disabled is brought back, so the lab is whole for the
    next point; what was done, as warnings' text. (An impairment is undone by lab.impair.beside_point around the point.)"""
    said = []
    for value in BACKENDS:
        mine = [f for f in fired if f.get("value") == value and not f.get("error")]
        last = mine[-1] if mine else None
        if last is None or not ACTIONS[last["action"]].stops:
            continue
        back = _undo(last["action"])
        try:
            ACTIONS[back].apply(value)  # noted by the action itself (lab/events.py)
            said.append(f"event {last['action']} {value} was not undone during the point: {back} {value} after it")
        except EventFailed as exc:
            said.append(f"could not bring {value} back after the point ({back}): {exc}")
    return said


def put_back_orphaned() -> list[str]:
    """At a worker's start: put back what processes that are gone took out; what was done (or why not), a line each."""
    said = []
    with _lock:
        taken = processes.load_state(FILE)
        for key, setter in list(taken.items()):
            if processes.is_alive(setter.get("pid"), setter.get("started")):
                continue
            undo, value = key.split(" ", 1)
            try:
                ACTIONS[undo].apply(value)
                said.append(f"{undo} {value}")
            except (EventFailed, KeyError) as exc:
                said.append(f"{undo} {value} failed: {exc}")
            del taken[key]
        if taken or FILE.exists():
            processes.save_state(FILE, taken)
    return said
