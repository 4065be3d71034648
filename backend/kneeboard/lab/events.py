"""The lab's point events (`lab.*`, run by the worker on the lab's processes and link), registered into the events
catalogue at start (kneeboard/extensions.py): stop, kill and start a backend; take it out of a balancer and put it
back; impair the lab's link. What a stop leaves out is put back after the point (lab/orphans.py)."""

from __future__ import annotations

import time
from typing import Callable

from kneeboard.events.actions import EventAction, EventFailed, register
from kneeboard.lab import backends, balancers, caddy, haproxy, namespace, orphans
from kneeboard.lab.actions import ActionError, ActionFailed, apply_setting, validate_setting
from kneeboard.lab.namespace import LAB_ADDR, LabError

BACKENDS = orphans.BACKENDS  # b1, b2, b3


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


def _setting_check(name: str) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        try:
            validate_setting(name, value)
        except ActionError as exc:
            return exc.message
        return None

    return check


def _on_lab(event, host: str, session) -> tuple[str, str] | None:  # noqa: ANN001
    """A lab action acts on the lab's servers: the plan's target must be the lab's."""
    if host != LAB_ADDR:
        return "action", f"{event.action} acts on the lab's servers: the target must be a lab target ({LAB_ADDR}), not {host}"
    return None


def _noted(name: str, apply: Callable[..., dict]) -> Callable[..., dict]:
    """`apply`, and what it took out (or put back) noted for orphans.restore after the point."""

    def noting(value: str, about: dict | None = None) -> dict:
        done = apply(value, about)
        orphans.note(name, value)
        return done

    return noting


def _action(name: str, description: str, apply: Callable[..., dict], **kind: bool) -> EventAction:
    return EventAction(name, description, BACKENDS, _noted(name, apply), admits=_on_lab, **kind)


def _impairment(name: str, what: str) -> EventAction:
    return EventAction(name, f"{what} at at_s (0 at a later at_s restores; every impairment ends with the point)", (),
                       _impair(name), impairs=True, check=_setting_check(name), admits=_on_lab)


def actions() -> tuple[EventAction, ...]:
    """The lab's point events, in the catalogue's order."""
    return (
        _action("lab.backend_stop", "stop a lab backend's nginx (SIGTERM, by PID)", _stop(False), stops=True),
        _action("lab.backend_kill", "kill a lab backend's nginx (SIGKILL, by PID)", _stop(True), stops=True),
        _action("lab.backend_start", "start a stopped lab backend again", _start, starts=True),
        _action("lab.haproxy_disable", "take a backend out through HAProxy's runtime API (disable server)", _haproxy("disable"),
                stops=True),
        _action("lab.haproxy_enable", "put a backend back through HAProxy's runtime API (enable server)", _haproxy("enable"),
                starts=True),
        _action("lab.caddy_disable", "take a backend out of Caddy's upstreams through its admin API (a graceful reload)",
                _caddy(False), stops=True),
        _action("lab.caddy_enable", "put a backend back in Caddy's upstreams through its admin API", _caddy(True), starts=True),
        _action("lab.nginx_down", "mark a backend down in the nginx balancer's upstream and reload it (SIGHUP: open-source "
                "nginx has no runtime API)", _nginx(True), stops=True),
        _action("lab.nginx_up", "mark it up again and reload", _nginx(False), starts=True),
        _impairment("lab.loss_permille", "drop N per mille of the lab link's packets each way (nftables)"),
        _impairment("lab.rate_mbit", "limit the lab's link to N Mbit/s each way (tbf)"),
        _impairment("lab.delay_ms", "delay the lab's link by N ms each way (netem, where the kernel has it)"),
    )  # fmt: skip


def register_events() -> None:
    """Put the lab's actions in the events catalogue, and its restore after each point."""
    register(*actions(), after_point=orphans.restore)
