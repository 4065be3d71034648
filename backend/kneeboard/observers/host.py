"""Host actions: point events an observer runs on the server's host (`kneeboard agent --observe --actions FILE`).

Only what the host's own configuration enables can run: a TOML file owned by root and writable by root alone, which
names the services (pidfile, command name, start command, listening address), HAProxy's stats socket and the
backend/servers it may disable, and the interface whose arriving packets may be dropped (with a ceiling). A plan names
an action and a name or number from that file, nothing else; a value outside it is refused on the observer (a warning
on the point). Everything an action took out is put back at a local deadline (the point's end on this host's clock,
at most `max_in_force_s` after it fired), and what is in force is written to a state file first, so an observer
killed mid-point puts it back when it starts again. Knows nothing of the web or the database."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import stat
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kneeboard.events.actions import ACTIONS, EventFailed
from kneeboard.lab import haproxy as haproxy_socket
from kneeboard.lab import impair
from kneeboard.lab.system import CommandFailed, run, which
from kneeboard.observers.nic import NicAccess

TABLE = "kneeboard_observer"  # our nftables table on this host (the lab's is kneeboard_impair)
STOP_WAIT_S = 5.0
HOST_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,39}$")  # what a host action names (a service, a backend/server)
Name = Annotated[str, Field(pattern=HOST_NAME.pattern)]


class ConfigRefused(RuntimeError):
    """The actions file is missing, unsafe (not root's alone) or malformed: the observer does not start."""


class Service(BaseModel):
    """A service the observer may stop, kill and start."""

    model_config = ConfigDict(extra="forbid")
    pidfile: Path = Field(description="where the running service writes its PID")
    comm: str = Field(pattern=r"^[^/\s]{1,15}$", description="its /proc/PID/comm: a PID whose name differs is not signalled")
    start: list[str] = Field(min_length=1, max_length=32, description="argv that starts it (it must daemonize or run in the foreground)")
    listen: str = Field(pattern=r"^[0-9a-fA-F.:\[\]]+:[0-9]{1,5}$", description="host:port it answers TCP on once started")
    start_timeout_s: float = Field(default=10.0, gt=0, le=30)


class HaproxyAccess(BaseModel):
    """HAProxy's stats socket (admin level) and the backend/servers the observer may disable and enable."""

    model_config = ConfigDict(extra="forbid")
    socket: Path
    servers: list[Name] = Field(min_length=1, max_length=64)


class LinkAccess(BaseModel):
    """The interface whose arriving packets may be dropped, and the most per mille a plan may ask for."""

    model_config = ConfigDict(extra="forbid")
    interface: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,15}$")
    loss_permille_max: int = Field(default=100, ge=1, le=1000)


class HostConfig(BaseModel):
    """The observer's actions file."""

    model_config = ConfigDict(extra="forbid")
    max_in_force_s: float = Field(default=300.0, gt=0, le=3600, description="an action is undone at most this long after it fired")
    services: dict[Name, Service] = Field(default_factory=dict, max_length=64)
    haproxy: HaproxyAccess | None = None
    link: LinkAccess | None = None
    nic: NicAccess | None = Field(default=None, description="the interface whose settings plans' variants may change (observers/nic.py)")


def load_config(path: Path) -> HostConfig:
    """Read the actions file; ConfigRefused unless it and its folder are root's and writable by root alone."""
    try:
        for checked in (path, path.parent):
            st = checked.stat()
            if st.st_uid != 0 or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                raise ConfigRefused(f"{checked} must be owned by root and writable by root alone (it decides what plans may do "
                                    "to this host)")
        return HostConfig.model_validate(tomllib.loads(path.read_text()))
    except OSError as exc:
        raise ConfigRefused(f"{path}: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ConfigRefused(f"{path}: {exc}") from exc


class HostActions:
    """What this host's configuration lets plans do, and the code that does it."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config

    def enabled(self) -> set[str]:
        """The host.* actions this configuration enables."""
        on = set()
        if self.config.services:
            on |= {"host.service_stop", "host.service_kill", "host.service_start"}
        if self.config.haproxy:
            on |= {"host.haproxy_disable", "host.haproxy_enable"}
        if self.config.link:
            on.add("host.loss_permille")
        return on

    def refusal(self, action: str, value: str) -> str | None:
        """Why this host will not run `action` on `value` (not enabled, not configured, past its ceiling), or None."""
        if action not in self.enabled():
            return f"{action} is not enabled on this host (its observer's actions file does not configure it)"
        if action.startswith("host.service_") and value not in self.config.services:
            return f"service {value!r} is not in this host's actions file"
        if action.startswith("host.haproxy_") and value not in self.config.haproxy.servers:
            return f"backend/server {value!r} is not in this host's actions file"
        if action == "host.loss_permille" and (not value.isdigit() or int(value) > self.config.link.loss_permille_max):
            return f"loss {value}/1000 is past this host's ceiling ({self.config.link.loss_permille_max}/1000)"
        return None

    def apply(self, action: str, value: str) -> dict:
        """Do it; facts to record (e.g. when a started service answered). Raises EventFailed."""
        if refusal := self.refusal(action, value):
            raise EventFailed(refusal)
        try:
            if action in ("host.service_stop", "host.service_kill"):
                return self._stop(value, signal.SIGKILL if action.endswith("kill") else signal.SIGTERM)
            if action == "host.service_start":
                return self._start(value)
            if action.startswith("host.haproxy_"):
                return self._haproxy(action.removeprefix("host.haproxy_"), value)
            return self._loss(int(value))
        except (OSError, CommandFailed) as exc:
            raise EventFailed(f"{action} {value}: {exc}") from exc

    @staticmethod
    def undoing(action: str, value: str) -> tuple[str, str] | None:
        """The action that puts back what `action` took out, or None (it took nothing out)."""
        if ACTIONS[action].stops:
            return ("host.haproxy_enable" if action == "host.haproxy_disable" else "host.service_start"), value
        if action == "host.loss_permille" and value != "0":
            return "host.loss_permille", "0"
        return None

    def _pid(self, name: str) -> int | None:
        service = self.config.services[name]
        try:
            pid = int(service.pidfile.read_text().split()[0])
            return pid if Path(f"/proc/{pid}/comm").read_text().strip() == service.comm else None
        except (OSError, ValueError, IndexError):
            return None

    def _stop(self, name: str, sig: signal.Signals) -> dict:
        pid = self._pid(name)
        if pid is None:
            raise EventFailed(f"service {name} is not running (no live {self.config.services[name].comm} at its pidfile's PID)")
        os.kill(pid, sig)
        deadline = time.monotonic() + STOP_WAIT_S
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return {"pid": pid}

    def _start(self, name: str) -> dict:
        service = self.config.services[name]
        if self._pid(name) is not None:
            raise EventFailed(f"service {name} is already running")
        subprocess.Popen(service.start, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)  # its argv is the root-owned file's, never the plan's
        host, _, port = service.listen.rpartition(":")
        deadline = time.monotonic() + service.start_timeout_s
        while time.monotonic() < deadline:
            try:
                socket.create_connection((host.strip("[]"), int(port)), timeout=0.5).close()
                return {"listening": time.time()}
            except OSError:
                time.sleep(0.02)
        raise EventFailed(f"service {name} did not answer on {service.listen} within {service.start_timeout_s:g} s")

    def _haproxy(self, verb: str, server: str) -> dict:
        sock = self.config.haproxy.socket
        said = haproxy_socket.command(sock.parent, f"{verb} server {server}", socket_name=sock.name).strip()
        if said:
            raise EventFailed(f"HAProxy answered: {said[:200]}")
        return {}

    def _loss(self, permille: int) -> dict:
        if which("nft") is None:
            raise EventFailed("nft is not installed on this host")
        if permille == 0:
            counted = impair.table_counters(TABLE)
            run(["nft", "delete", "table", "inet", TABLE], check=False)
            return {"packets": counted}
        run(["nft", "-f", "-"], input_text=impair.loss_rules(TABLE, self.config.link.interface, permille))
        return {}


class InForce:
    """What this observer's actions took out and has not yet put back, kept in a state file (written before each
    action) so that a restarted observer puts it back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.undo: dict[str, tuple[str, str]] = {}  # key: what was taken out → the action that puts it back

    def note(self, action: str, value: str) -> tuple[str, tuple[str, str] | None]:
        """Record what `action` on `value` takes out or puts back, before doing it; what `unnote` needs to forget it."""
        undo = HostActions.undoing(action, value)
        key = f"{action.split('_')[0]}:{value}" if not action.startswith("host.loss") else "loss"
        noted = key, self.undo.get(key)
        self._set(key, undo)
        return noted

    def unnote(self, noted: tuple[str, tuple[str, str] | None]) -> None:
        """Forget a `note` whose action failed: what was in force before it is again."""
        self._set(*noted)

    def _set(self, key: str, undo: tuple[str, str] | None) -> None:
        if undo is None:
            self.undo.pop(key, None)
        else:
            self.undo[key] = undo
        self._save()

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.undo))
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    def put_back(self, actions: HostActions) -> list[dict]:
        """Undo everything still in force, newest first; a record of each undo (with its error, if any)."""
        done = []
        for key, (action, value) in reversed(list(self.undo.items())):
            record = {"action": action, "value": value, "t": time.time()}
            try:
                record.update(actions.apply(action, value))
            except EventFailed as exc:
                record["error"] = str(exc)
            done.append(record)
            self.undo.pop(key)
        self._save()
        return done

    @classmethod
    def recover(cls, path: Path, actions: HostActions) -> list[dict]:
        """At the observer's start: put back what a previous run left in force (it was killed mid-point)."""
        left = cls(path)
        try:
            left.undo = {k: tuple(v) for k, v in json.loads(path.read_text()).items()}
        except (OSError, ValueError):
            return []
        return left.put_back(actions)
