"""A server host's NIC through its observer: the host facts it reads before a variant's points and the host settings
(`host.channels`, `host.rps`, `host.gro`) a plan's variant may change — only on the interface and within the bounds
its root-owned actions file names (`[nic]`), never on the interface carrying the observer's own link to Kneeboard.
A plan gives a setting's name and a typed value, nothing else: the commands are this module's own.

What a change took out (the value found before it) is written to a state file first and put back at the campaign's
end, on cancel, and by a restarted observer (a value left longer than the file's `in_force_max_s` is put back at the
observer's next assignment). Knows nothing of the web or the database."""

from __future__ import annotations

import json
import os
import re
import socket
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.environment import collect_facts
from kneeboard.lab import ethtool
from kneeboard.lab.system import CommandFailed, run

SETTINGS = ("host.channels", "host.rps", "host.gro")
RPS_MASK = re.compile(r"^[0-9a-f]{1,16}(,[0-9a-f]{8}){0,15}$")
PREFIX = "server."  # the observer's facts beside the generator's own in a campaign's environment


class HostSettingRefused(ValueError):
    """A value this host's actions file does not allow (or not a value of that setting at all): the reason."""


class NicAccess(BaseModel):
    """The `[nic]` table of the actions file: the interface whose settings a plan's variants may change, and how."""

    model_config = ConfigDict(extra="forbid")
    interface: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,15}$")
    channels_min: int = Field(default=1, ge=1, le=1024)
    channels_max: int = Field(default=1, ge=1, le=1024, description="at most the device's own maximum (ethtool -l)")
    rps: bool = Field(default=False, description="whether variants may set the RPS mask of every receive queue")
    gro: bool = Field(default=False, description="whether variants may turn GRO on and off")
    settle_s: float = Field(default=2.0, ge=0, le=30, description="wait after a change before reading back (a channel change resets many NICs)")
    in_force_max_s: float = Field(default=6 * 3600.0, gt=0, le=86_400, description="a change is put back at most this long after it was made")
    process: str | None = Field(default=None, pattern=r"^[^/\s]{1,15}$", description="the server's command name: its CPU affinity is a fact")


def typed(name: str, value: Any) -> int | str | bool:
    """The typed value of a host setting (HostSettingRefused when it is not one): channels a whole number 1–1024, an
    RPS mask in hex (as /sys prints it), GRO true/false."""
    if name == "host.channels":
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.isdigit())) or not 1 <= int(value) <= 1024:
            raise HostSettingRefused(f"{value!r} is not a channel count (a whole number 1-1024)")
        return int(value)
    if name == "host.rps":
        mask = str(value).lower().removeprefix("0x")
        if not RPS_MASK.match(mask):
            raise HostSettingRefused(f"{value!r} is not a CPU mask in hex (e.g. 3, or 0 for none)")
        return mask
    if name == "host.gro":
        if isinstance(value, bool) or value in ("on", "off"):
            return value in (True, "on")
        raise HostSettingRefused(f"{value!r} is not true or false")
    raise HostSettingRefused(f"unknown host setting {name!r} (known: {', '.join(SETTINGS)})")


def link_interface(api_host: str) -> str | None:
    """The interface this host reaches Kneeboard's API through (`ip route get`), None when it cannot be told."""
    try:
        address = api_host if re.match(r"^[0-9a-fA-F.:]+$", api_host) else socket.gethostbyname(api_host)
        said = run(["ip", "route", "get", address], check=False).stdout
    except (OSError, CommandFailed):
        return None
    found = re.search(r"\bdev (\S+)", said)
    return found.group(1) if found else None


def _sys(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _irq_affinity(dev: str, interrupts: str) -> dict[str, str]:
    """The CPUs each of the interface's IRQs is bound to (/proc/interrupts lines naming it); none on veth."""
    facts = {}
    for line in interrupts.splitlines():
        irq, _, rest = line.strip().partition(":")
        if irq.isdigit() and re.search(rf"\b{re.escape(dev)}(\b|-)", rest):
            facts[f"irq.{irq}.{rest.split()[-1]}"] = _sys(f"/proc/irq/{irq}/smp_affinity_list") or "?"
    return facts


def _pids(comm: str) -> list[int]:
    pids = []
    for entry in Path("/proc").glob("[0-9]*/comm"):
        try:
            if entry.read_text().strip() == comm:
                pids.append(int(entry.parent.name))
        except (OSError, ValueError):
            continue
    return pids


def _cpus(cpus: set[int]) -> str:
    """1,2,3,5 → 1-3,5."""
    out, ordered = [], sorted(cpus)
    for cpu in ordered:
        if out and out[-1][1] == cpu - 1:
            out[-1][1] = cpu
        else:
            out.append([cpu, cpu])
    return ",".join(f"{a}-{b}" if b > a else str(a) for a, b in out)


class HostNic:
    """What this host's `[nic]` lets variants change, the code that changes and reads it, and the state file of what
    is to be put back."""

    def __init__(self, access: NicAccess | None, state: Path, link_dev: str | None = None) -> None:
        self.access, self.state, self.link_dev = access, state, link_dev

    def refusal(self, name: str, value: Any) -> str | None:
        """Why this host will not set `name` to `value`, or None."""
        try:
            value = typed(name, value)
        except HostSettingRefused as exc:
            return f"{name}: {exc}"
        access = self.access
        if access is None:
            return f"{name}: this observer's actions file has no [nic] table (no host setting may change)"
        if self.link_dev is not None and access.interface == self.link_dev:
            return (f"{name}: interface {access.interface} carries this observer's own link to Kneeboard: "
                    "its settings are not changed from a plan")
        if name == "host.channels":
            most = self._device_max()
            if not access.channels_min <= value <= min(access.channels_max, most or access.channels_max):
                return (f"host.channels {value} is outside what this host allows on {access.interface} "
                        f"({access.channels_min}-{min(access.channels_max, most or access.channels_max)})")
        if name in ("host.rps", "host.gro") and not getattr(access, name.removeprefix("host.")):
            return f"{name} is not allowed on this host (its actions file's [nic] does not set {name.removeprefix('host.')} = true)"
        return None

    def _device_max(self) -> int | None:
        try:
            most = ethtool.channels(self.access.interface).get("max", {})
        except CommandFailed:
            return None
        return most.get("combined") or most.get("rx")

    def read(self, name: str) -> int | str | bool | None:
        """The interface's current value of a host setting (None when unreadable)."""
        dev = self.access.interface
        try:
            if name == "host.channels":
                now = ethtool.channels(dev).get("current", {})
                return now.get("combined") or now.get("rx")
            if name == "host.gro":
                return ethtool.feature_on(ethtool.features(dev), "gro")
        except CommandFailed:
            return None
        masks = {(_sys(str(q / "rps_cpus")) or "?").lstrip("0,") or "0" for q in Path(f"/sys/class/net/{dev}/queues").glob("rx-*")}
        return masks.pop() if len(masks) == 1 else ",".join(sorted(masks)) or None

    def _set(self, name: str, value: int | str | bool) -> None:
        dev = self.access.interface
        if name == "host.channels":
            if (ethtool.channels(dev).get("max", {}).get("combined") or 0) > 0:
                ethtool.set_combined(dev, value)
            else:
                ethtool.set_channels(dev, value, value)
        elif name == "host.gro":
            ethtool.set_features(dev, {"gro": value})
        else:
            for queue in Path(f"/sys/class/net/{dev}/queues").glob("rx-*"):
                (queue / "rps_cpus").write_text(value)

    def apply(self, name: str, value: Any) -> dict:
        """Set one host setting (what it was first written to the state file), wait the settle time, read it back:
        {"name", "value", "read_back", "before"}; HostSettingRefused with the reason when not allowed or not taken."""
        if refusal := self.refusal(name, value):
            raise HostSettingRefused(refusal)
        value, taken = typed(name, value), self._load()
        before = self.read(name)
        if name not in taken and before is not None:
            taken[name] = [before, time.time() + self.access.in_force_max_s]
            self._save(taken)
        try:
            if before != value:
                self._set(name, value)
                time.sleep(self.access.settle_s)
        except (CommandFailed, OSError) as exc:
            raise HostSettingRefused(f"{name} {value}: {exc}") from exc
        read_back = self.read(name)
        if name in taken and taken[name][0] == read_back:
            taken.pop(name)  # back to what it was: nothing to put back
            self._save(taken)
        return {"name": name, "value": value, "read_back": read_back, "before": before}

    def put_back(self, names: set[str] | None = None, expired_only: bool = False) -> list[dict]:
        """Put back the values changes took out (those of `names`, or all; only those past their lifetime with
        `expired_only`); a record of each."""
        done = []
        for name, (original, deadline) in self._load().items():
            if (names is not None and name not in names) or (expired_only and time.time() < deadline):
                continue
            try:
                done.append(self.apply(name, original))
            except HostSettingRefused as exc:
                done.append({"name": name, "value": original, "error": str(exc)})
        return done

    def _load(self) -> dict[str, list]:
        try:
            return json.loads(self.state.read_text())
        except (OSError, ValueError):
            return {}

    def _save(self, taken: dict) -> None:
        tmp = self.state.with_suffix(".tmp")
        tmp.write_text(json.dumps(taken))
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.state)

    def facts(self) -> dict[str, str]:
        """This host's facts, each prefixed `server.`: kernel, CPUs (count, model, governor), irqbalance, the interface's
        channels/offloads/RPS masks (environment.interface_facts), its rings and IRQ affinity, the server's affinity."""
        dev = self.access.interface if self.access else None
        facts = collect_facts(interfaces=[dev] if dev else [])
        facts["cpu.governor"] = _sys("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") or "unavailable (no cpufreq)"
        facts["irqbalance"] = "running" if _pids("irqbalance") else "not running"
        if dev:
            try:
                rings = ethtool.rings(dev).get("current", {})
                facts.update({f"nic.{dev}.ring.{k.replace(' ', '_')}": str(v) for k, v in rings.items() if v is not None})
            except CommandFailed:
                facts[f"nic.{dev}.ring"] = "unavailable (ethtool -g not supported)"
            facts.update({f"nic.{dev}.{k}": v for k, v in _irq_affinity(dev, _sys("/proc/interrupts") or "").items()})
        if self.access and self.access.process:
            pids = _pids(self.access.process)
            cpus = set().union(*(os.sched_getaffinity(p) for p in pids)) if pids else set()
            facts[f"process.{self.access.process}.affinity"] = _cpus(cpus) if pids else "not running"
        return {f"{PREFIX}{k}": v for k, v in facts.items()}


def apply_all(nic: HostNic, settings: dict[str, Any]) -> dict:
    """A host assignment's work: put back what outlived its lifetime, apply each setting in order (None: put back what
    was found before this observer changed it) stopping at the first refused, read the facts; the report's `host` body."""
    expired = nic.put_back(expired_only=True)
    applied, refused = [], None
    for name, value in settings.items():
        try:
            applied += nic.put_back({name}) if value is None else [nic.apply(name, value)]
        except HostSettingRefused as exc:
            refused = str(exc)
            break
    return {"applied": applied, "refused": refused, "facts": nic.facts(), "expired": expired}

