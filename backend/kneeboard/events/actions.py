"""The registered point events: the only way a plan acts on a system under test during a point (never a command from
the plan). Each takes a value from a fixed set and returns what it did; a failure raises EventFailed.

Three kinds run them: the worker (`lab.*`, on the lab's processes and link; `webhook.send`, one POST), and an observer
on the server's host (`host.*`: events/host.py, only what that host's root-owned configuration enables, bounded there
and undone at a local deadline)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable, Literal

from kneeboard.lab import backends, balancers, caddy, haproxy, namespace
from kneeboard.lab.actions import ActionError, ActionFailed, apply_setting, validate_setting
from kneeboard.lab.namespace import LabError

BACKENDS = tuple(backends.name(i) for i in backends.indexes())  # b1, b2, b3
HOST_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,39}$")  # what a host action names (a service, a backend/server)
Runner = Literal["worker", "observer"]


class EventFailed(RuntimeError):
    """The action could not be done (the lab is down, the backend already stopped…): a warning on the point."""


@dataclass(frozen=True)
class EventAction:
    """One registered action: what it does, the values it takes, and the code that does it (returns facts to record)."""

    name: str
    description: str
    values: tuple[str, ...]
    apply: Callable[..., dict]  # (value, about=None): about is the point's {campaign_id, point_id, at_s}, for a webhook's body
    stops: bool = False  # takes a backend out: a failure event, read by the failover figures
    starts: bool = False  # brings one back: its `listening` time starts the recovery
    impairs: bool = False  # changes the lab's link (a registered lab action's value; 0 restores): the point counts its cost
    runs_on: Runner = "worker"  # "observer": run by the observer the event names, on the server's host (events/host.py)
    check: Callable[[str], str | None] | None = None  # the value's own check, when not one of `values`

    def refusal(self, value: str) -> str | None:
        """Why `value` is not one this action takes (→ 422), or None."""
        if self.check is not None:
            return self.check(value)
        if self.impairs:
            try:
                validate_setting(self.name, value)
            except ActionError as exc:
                return exc.message
            return None
        return None if value in self.values else f"{self.name} takes one of {', '.join(self.values)}, not {value!r}"


def _index(value: str) -> int:
    return BACKENDS.index(value) + 1


def _stop(kill: bool) -> Callable[..., dict]:
    def apply(value: str, about: dict | None = None) -> dict:
        service = backends.service(_index(value))
        if not namespace.service_record(service).get("pid"):
            raise EventFailed(f"{value} is not running (stopped before this event)")
        try:
            namespace.stop_service(service, kill=kill)
        except LabError as exc:
            raise EventFailed(str(exc)) from exc
        return {}

    return apply


def _start(value: str, about: dict | None = None) -> dict:
    service = backends.service(_index(value))
    if namespace.service_record(service).get("pid"):
        raise EventFailed(f"{value} is already running")
    try:
        namespace.start_service(service)
    except LabError as exc:
        raise EventFailed(str(exc)) from exc
    return {"listening": time.time()}  # start_service returns once it answers on its port


def _haproxy(verb: str) -> Callable[..., dict]:
    def apply(value: str, about: dict | None = None) -> dict:
        try:
            said = haproxy.command(namespace.lab_workdir() / "haproxy", f"{verb} server servers/{value}").strip()
        except OSError as exc:
            raise EventFailed(f"HAProxy's stats socket: {exc}") from exc
        if said:
            raise EventFailed(f"HAProxy answered: {said[:200]}")
        return {}

    return apply


def _balancer(what: str, change: Callable[[int], None]) -> Callable[..., dict]:
    """A backend taken out of (or put back in) a balancer at runtime by `change(backend index)`."""

    def apply(value: str, about: dict | None = None) -> dict:
        try:
            change(_index(value))
        except (OSError, ValueError) as exc:
            raise EventFailed(f"{what}: {exc}") from exc
        return {}

    return apply


def _caddy(present: bool) -> Callable[..., dict]:
    return _balancer("Caddy's admin API", lambda i: caddy.set_upstream(namespace.lab_workdir() / "caddy", i, present))


def _nginx(down: bool) -> Callable[..., dict]:
    def change(index: int) -> None:
        pid = namespace.service_record(balancers.NGINX_SERVICE).get("pid")
        if not pid:
            raise ValueError(f"{balancers.NGINX_SERVICE} is not running")
        balancers.set_nginx_down(namespace.LAB_ADDR, namespace.lab_workdir() / "nginx-lb", pid, index, down)

    return _balancer("nginx's reload", change)


def _impair(name: str) -> Callable[..., dict]:
    def apply(value: str, about: dict | None = None) -> dict:
        try:
            return {"in_force": apply_setting(name, value)}  # read back from the link
        except (ActionError, ActionFailed) as exc:
            raise EventFailed(str(exc)) from exc

    return apply


def _impairment(name: str, what: str) -> EventAction:
    return EventAction(name, f"{what} at at_s (0 at a later at_s restores; every impairment ends with the point)", (),
                       _impair(name), impairs=True)


def _on_observer(value: str, about: dict | None = None) -> dict:
    raise EventFailed("a host action runs on its observer, not on the worker")


def _named(value: str) -> str | None:
    return None if HOST_NAME.match(value) else f"{value!r} is not a name its host's configuration could list (letters, digits, _.:/-)"


def _count(most: int) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        return None if value.isdigit() and int(value) <= most else f"{value!r} is not a whole number 0-{most}"

    return check


def _host(name: str, description: str, check: Callable[[str], str | None] = _named, **kind: bool) -> EventAction:
    return EventAction(name, f"{description} (on the observer's host, as its configuration allows)", (), _on_observer,
                       runs_on="observer", check=check, **kind)


def _webhook_id(value: str) -> str | None:
    return None if value.isdigit() and 0 < int(value) < 2**31 else f"{value!r} is not a webhook's id"


def _webhook(value: str, about: dict | None = None) -> dict:
    from kneeboard.webhooks.fire import fire  # the webhooks domain needs the database; the observer never imports it

    return fire(int(value), about)


ACTIONS: dict[str, EventAction] = {a.name: a for a in (
    EventAction("lab.backend_stop", "stop a lab backend's nginx (SIGTERM, by PID)", BACKENDS, _stop(False), stops=True),
    EventAction("lab.backend_kill", "kill a lab backend's nginx (SIGKILL, by PID)", BACKENDS, _stop(True), stops=True),
    EventAction("lab.backend_start", "start a stopped lab backend again", BACKENDS, _start, starts=True),
    EventAction("lab.haproxy_disable", "take a backend out through HAProxy's runtime API (disable server)", BACKENDS,
                _haproxy("disable"), stops=True),
    EventAction("lab.haproxy_enable", "put a backend back through HAProxy's runtime API (enable server)", BACKENDS,
                _haproxy("enable"), starts=True),
    EventAction("lab.caddy_disable", "take a backend out of Caddy's upstreams through its admin API (a graceful reload)",
                BACKENDS, _caddy(False), stops=True),
    EventAction("lab.caddy_enable", "put a backend back in Caddy's upstreams through its admin API", BACKENDS, _caddy(True), starts=True),
    EventAction("lab.nginx_down", "mark a backend down in the nginx balancer's upstream and reload it (SIGHUP: open-source "
                "nginx has no runtime API)", BACKENDS, _nginx(True), stops=True),
    EventAction("lab.nginx_up", "mark it up again and reload", BACKENDS, _nginx(False), starts=True),
    _impairment("lab.loss_permille", "drop N per mille of the lab link's packets each way (nftables)"),
    _impairment("lab.rate_mbit", "limit the lab's link to N Mbit/s each way (tbf)"),
    _impairment("lab.delay_ms", "delay the lab's link by N ms each way (netem, where the kernel has it)"),
    _host("host.service_stop", "stop a configured service (SIGTERM to its pidfile's PID)", stops=True),
    _host("host.service_kill", "kill a configured service (SIGKILL to its pidfile's PID)", stops=True),
    _host("host.service_start", "start a configured service with its configured command", starts=True),
    _host("host.haproxy_disable", "disable a configured backend/server through HAProxy's stats socket", stops=True),
    _host("host.haproxy_enable", "enable a configured backend/server through HAProxy's stats socket", starts=True),
    _host("host.loss_permille", "drop N per mille of the packets arriving on the configured interface (0 restores)", _count(1000)),
    EventAction("webhook.send", "POST once to a webhook subscribed to \"action\" (value: its id), never retried", (), _webhook,
                check=_webhook_id),
)}  # fmt: skip
HOST_ACTIONS = {name for name, a in ACTIONS.items() if a.runs_on == "observer"}
UNDO = {"lab.haproxy_disable": "lab.haproxy_enable", "lab.caddy_disable": "lab.caddy_enable", "lab.nginx_down": "lab.nginx_up"}  # else a stop's undo is a start


def impairing(events: list[dict]) -> bool:
    """True when any of a point's events changes the lab's link (the point then counts what the link dropped)."""
    return any(ACTIONS[e["action"]].impairs for e in events)


def on_worker(events: list[dict]) -> list[dict]:
    """The events the worker itself fires (lab and webhook actions)."""
    return [e for e in events if ACTIONS[e["action"]].runs_on == "worker"]


def on_observers(events: list[dict]) -> dict[str, list[dict]]:
    """The host events by the observer that runs them."""
    found: dict[str, list[dict]] = {}
    for event in events:
        if ACTIONS[event["action"]].runs_on == "observer":
            found.setdefault(event["observer"], []).append(event)
    return found
