"""The registered point events: the only way a plan acts on a system under test during a point (never a command from
the plan). Each takes a value from a fixed set and returns what it did; a failure raises EventFailed."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from kneeboard.lab import backends, haproxy, namespace
from kneeboard.lab.actions import ActionError, ActionFailed, apply_setting, validate_setting
from kneeboard.lab.namespace import LabError

BACKENDS = tuple(backends.name(i) for i in backends.indexes())  # b1, b2, b3


class EventFailed(RuntimeError):
    """The action could not be done (the lab is down, the backend already stopped…): a warning on the point."""


@dataclass(frozen=True)
class EventAction:
    """One registered action: what it does, the values it takes, and the code that does it (returns facts to record)."""

    name: str
    description: str
    values: tuple[str, ...]
    apply: Callable[[str], dict]
    stops: bool = False  # takes a backend out: a failure event, read by the failover figures
    starts: bool = False  # brings one back: its `listening` time starts the recovery
    impairs: bool = False  # changes the lab's link (a registered lab action's value; 0 restores): the point counts its cost

    def refusal(self, value: str) -> str | None:
        """Why `value` is not one this action takes (→ 422), or None."""
        if self.impairs:
            try:
                validate_setting(self.name, value)
            except ActionError as exc:
                return exc.message
            return None
        return None if value in self.values else f"{self.name} takes one of {', '.join(self.values)}, not {value!r}"


def _index(value: str) -> int:
    return BACKENDS.index(value) + 1


def _stop(kill: bool) -> Callable[[str], dict]:
    def apply(value: str) -> dict:
        service = backends.service(_index(value))
        if not namespace.service_record(service).get("pid"):
            raise EventFailed(f"{value} is not running (stopped before this event)")
        try:
            namespace.stop_service(service, kill=kill)
        except LabError as exc:
            raise EventFailed(str(exc)) from exc
        return {}

    return apply


def _start(value: str) -> dict:
    service = backends.service(_index(value))
    if namespace.service_record(service).get("pid"):
        raise EventFailed(f"{value} is already running")
    try:
        namespace.start_service(service)
    except LabError as exc:
        raise EventFailed(str(exc)) from exc
    return {"listening": time.time()}  # start_service returns once it answers on its port


def _haproxy(verb: str) -> Callable[[str], dict]:
    def apply(value: str) -> dict:
        try:
            said = haproxy.command(namespace.lab_workdir() / "haproxy", f"{verb} server servers/{value}").strip()
        except OSError as exc:
            raise EventFailed(f"HAProxy's stats socket: {exc}") from exc
        if said:
            raise EventFailed(f"HAProxy answered: {said[:200]}")
        return {}

    return apply


def _impair(name: str) -> Callable[[str], dict]:
    def apply(value: str) -> dict:
        try:
            return {"in_force": apply_setting(name, value)}  # read back from the link
        except (ActionError, ActionFailed) as exc:
            raise EventFailed(str(exc)) from exc

    return apply


def _impairment(name: str, what: str) -> EventAction:
    return EventAction(name, f"{what} at at_s (0 at a later at_s restores; every impairment ends with the point)", (),
                       _impair(name), impairs=True)


ACTIONS: dict[str, EventAction] = {a.name: a for a in (
    EventAction("lab.backend_stop", "stop a lab backend's nginx (SIGTERM, by PID)", BACKENDS, _stop(False), stops=True),
    EventAction("lab.backend_kill", "kill a lab backend's nginx (SIGKILL, by PID)", BACKENDS, _stop(True), stops=True),
    EventAction("lab.backend_start", "start a stopped lab backend again", BACKENDS, _start, starts=True),
    EventAction("lab.haproxy_disable", "take a backend out through HAProxy's runtime API (disable server)", BACKENDS,
                _haproxy("disable"), stops=True),
    EventAction("lab.haproxy_enable", "put a backend back through HAProxy's runtime API (enable server)", BACKENDS,
                _haproxy("enable"), starts=True),
    _impairment("lab.loss_permille", "drop N per mille of the lab link's packets each way (nftables)"),
    _impairment("lab.rate_mbit", "limit the lab's link to N Mbit/s each way (tbf)"),
    _impairment("lab.delay_ms", "delay the lab's link by N ms each way (netem, where the kernel has it)"),
)}  # fmt: skip


def impairing(events: list[dict]) -> bool:
    """True when any of a point's events changes the lab's link (the point then counts what the link dropped)."""
    return any(ACTIONS[e["action"]].impairs for e in events)


def restore(fired: list[dict]) -> list[str]:
    """After the point: every backend an event left stopped or disabled is brought back, so the lab is whole for the
    next point; what was done, as warnings' text. (An impairment is undone by lab.impair.beside_point around the point.)"""
    said = []
    for value in BACKENDS:
        mine = [f for f in fired if f.get("value") == value and not f.get("error")]
        last = mine[-1] if mine else None
        if last is None or not ACTIONS[last["action"]].stops:
            continue
        back = "lab.haproxy_enable" if last["action"] == "lab.haproxy_disable" else "lab.backend_start"
        try:
            ACTIONS[back].apply(value)
            said.append(f"event {last['action']} {value} was not undone during the point: {back} {value} after it")
        except EventFailed as exc:
            said.append(f"could not bring {value} back after the point ({back}): {exc}")
    return said
