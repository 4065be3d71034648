"""The host actions (`host.*`): point events an observer runs on the server's host (observers/host.py does them, only as
its root-owned configuration allows), registered into the events catalogue at start by the server and the worker
(kneeboard/extensions.py) and by the observer itself (observers/agent.py)."""

from __future__ import annotations

from typing import Callable

from kneeboard.events.actions import EventAction, EventFailed, register
from kneeboard.observers.host import HOST_NAME


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


def actions() -> tuple[EventAction, ...]:
    """The host actions, in the catalogue's order."""
    return (
        _host("host.service_stop", "stop a configured service (SIGTERM to its pidfile's PID)", stops=True),
        _host("host.service_kill", "kill a configured service (SIGKILL to its pidfile's PID)", stops=True),
        _host("host.service_start", "start a configured service with its configured command", starts=True),
        _host("host.haproxy_disable", "disable a configured backend/server through HAProxy's stats socket", stops=True),
        _host("host.haproxy_enable", "enable a configured backend/server through HAProxy's stats socket", starts=True),
        _host("host.loss_permille", "drop N per mille of the packets arriving on the configured interface (0 restores)", _count(1000)),
    )


def register_events() -> None:
    """Put the host actions in the events catalogue."""
    register(*actions())
