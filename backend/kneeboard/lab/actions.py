"""Registered lab actions: the only way a variant changes the environment (never text typed in a browser).

name → (validator, apply, read). `validate_setting` raises ActionError (the API answers 422);
`apply_setting` raises ActionFailed when the system refuses (lab not up, ethtool missing…).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Iterable

from kneeboard.lab import adguard, bind, caddy, coredns, ethtool, haproxy, impair, namespace
from kneeboard.lab.namespace import HOST_IF, LAB_IF, NETNS, LabError, current_queues, status
from kneeboard.lab.system import CommandFailed, cpu_count, list_sysfs, read_sysfs, which, write_sysfs
from kneeboard.variant_settings import SettingFailed, SettingProvider, SettingRefused, register

ENDS = ((HOST_IF, None), (LAB_IF, NETNS))  # (device, netns) for both ends of the veth
GRO_FEATURES = ("gro", "rx-udp-gro-forwarding")


class ActionError(SettingRefused):
    """An unknown action or a value out of range; `field` names what was wrong (→ HTTP 422)."""


class ActionFailed(SettingFailed):
    """A valid setting the system could not apply."""


@dataclass(frozen=True)
class Action:
    """One registered action: its value type and range, and how to apply and read it."""

    name: str
    type: str  # "int" | "bool" | "enum"
    description: str
    apply: Callable[[Any], None]
    read: Callable[[], Any]
    min: Callable[[], int] | None = None
    max: Callable[[], int] | None = None
    choices: tuple[str, ...] | None = None  # an enum's values
    default: Any = None  # set when a variant does not, and after the campaign (None: the value found before it)
    needs: str | None = "ethtool"  # a tool the action runs
    held: Callable[[], bool] | None = None  # True while the process that applied the current value still runs
    unavailable: Callable[[], str | None] | None = None  # why this host cannot have it (a probe), None when it can


# ---------------------------------------------------------------- validators


def _as_bool(field: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("on", "off", "true", "false", "1", "0", "yes", "no"):
        return value.strip().lower() in ("on", "true", "1", "yes")
    raise ActionError(field, f"expected on/off, got {value!r}")


def _as_int(field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ActionError(field, f"expected an integer {lo}…{hi}, got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise ActionError(field, f"expected an integer {lo}…{hi}, got {value!r}") from None
    if not lo <= number <= hi:
        raise ActionError(field, f"{number} is out of range {lo}…{hi}")
    return number


def _as_choice(field: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ActionError(field, f"expected one of {', '.join(choices)}, got {value!r}")
    return value


# ---------------------------------------------------------------- apply / read


def _config_action(name: str, what: str, server: ModuleType | type, read: Callable[[], str | None]) -> Action:
    """The enum action that restarts a lab server (a module with SERVICE, CONFIGS, DEFAULT, describe) with one of its
    named configurations."""

    def apply(config: str) -> None:
        try:
            namespace.restart_service(server.SERVICE, config)
        except LabError as exc:
            raise CommandFailed(str(exc)) from exc

    return Action(name, "enum", f"{what} ({server.SERVICE}) restarted with a named configuration: "
                  + "; ".join(map(server.describe, server.CONFIGS)), apply, read, choices=tuple(server.CONFIGS),
                  default=server.DEFAULT, needs=None, held=lambda: namespace.setter_alive(server.SERVICE))


def _read_coredns(service: str = coredns.SERVICE) -> str | None:
    record = namespace.service_record(service)
    return coredns.running_config(record.get("pid"), record.get("started"))


def _read_adguard() -> str | None:
    return adguard.running_config(namespace.LAB_ADDR, namespace.lab_workdir() / "adguard")


def _read_haproxy() -> str | None:
    return haproxy.running_config(namespace.lab_workdir() / "haproxy")  # from its stats socket


def _read_caddy() -> str | None:
    return caddy.running_config(namespace.lab_workdir() / "caddy")  # from its admin socket


def _read_bind() -> str | None:
    record = namespace.service_record(bind.SERVICE)
    return bind.running_config(record.get("pid"), record.get("started"))


def _queue_dirs(dev: str, netns: str | None) -> list[str]:
    return [q for q in list_sysfs(f"/sys/class/net/{dev}/queues", netns) if q.startswith("rx-")]


def _set_rps_mask(mask: str) -> None:
    for queue in _queue_dirs(LAB_IF, NETNS):
        write_sysfs(f"/sys/class/net/{LAB_IF}/queues/{queue}/rps_cpus", mask, NETNS)


def all_cpus_mask(count: int | None = None) -> str:
    """The rps_cpus mask naming CPUs 0…count-1, in the kernel's comma-separated 32-bit groups."""
    count = count or cpu_count()
    value = (1 << count) - 1
    groups = []
    while True:
        groups.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            break
    return ",".join([f"{groups[-1]:x}"] + [f"{g:08x}" for g in reversed(groups[:-1])])


def _read_rps() -> bool:
    masks = [read_sysfs(f"/sys/class/net/{LAB_IF}/queues/{q}/rps_cpus", NETNS) for q in _queue_dirs(LAB_IF, NETNS)]
    return any(m and m.replace(",", "").strip("0") for m in masks)


def _apply_queues(n: int) -> None:
    rps_on = _read_rps()
    for dev, netns in ENDS:
        ethtool.set_channels(dev, n, n, netns)
    if rps_on:  # new rx queues start with rps_cpus 0: keep the RPS setting consistent
        _set_rps_mask(all_cpus_mask())


def _read_queues() -> int | None:
    return current_queues()


def _apply_rps(on: bool) -> None:
    _set_rps_mask(all_cpus_mask() if on else "0")


def _apply_gro(on: bool) -> None:
    for dev, netns in ENDS:
        ethtool.set_features(dev, {f: on for f in GRO_FEATURES}, netns)


def _read_gro() -> bool:
    feats = ethtool.features(LAB_IF, NETNS)
    return all(ethtool.feature_on(feats, f) for f in GRO_FEATURES)


def _apply_threaded(on: bool) -> None:
    """Write /sys/class/net/DEV/threaded on both ends. veth has NAPI only while GRO (or XDP) is on and the
    kernel refuses the write without it; then GRO is switched on for the write and back off, so the flag is
    set and takes effect whenever GRO is on (variants may apply gro and threaded_napi in any order)."""
    value = "1" if on else "0"
    for dev, netns in ENDS:
        path = f"/sys/class/net/{dev}/threaded"
        if read_sysfs(path, netns) == value:
            continue
        try:
            write_sysfs(path, value, netns)
        except CommandFailed:
            gro_was_on = ethtool.feature_on(ethtool.features(dev, netns), "gro")
            if gro_was_on:
                raise
            ethtool.set_features(dev, {"gro": True}, netns)
            try:
                write_sysfs(path, value, netns)
            finally:
                ethtool.set_features(dev, {"gro": False}, netns)


def _read_threaded() -> bool:
    return read_sysfs(f"/sys/class/net/{LAB_IF}/threaded", NETNS) == "1"


def _impair_actions() -> tuple[Action, ...]:
    """Impairments of the lab's link (lab.impair): 0 is none, the default, so a campaign ends with none."""

    def read(key: str) -> Callable[[], int]:
        return lambda: impair.state()[key]

    common = {"min": lambda: 0, "default": 0, "held": impair.setter_alive}
    return (
        Action("lab.loss_permille", "int", "drop N per mille of the packets on the lab's link, each way "
               "(nftables numgen random, table inet kneeboard_impair; 10 = 1 %)", impair.set_loss, read("loss_permille"),
               max=lambda: impair.LOSS_MAX, needs="nft", **common),
        Action("lab.rate_mbit", "int", "limit the lab's link to N Mbit/s each way (tbf on both ends; 0 = no limit)",
               lambda n: impair.set_shaping(rate_mbit=n), read("rate_mbit"), max=lambda: impair.RATE_MAX_MBIT, needs="tc",
               **common),
        Action("lab.delay_ms", "int", "delay the lab's link by N ms each way (netem; only where the kernel has netem)",
               lambda n: impair.set_shaping(delay_ms=n), read("delay_ms"), max=lambda: impair.DELAY_MAX_MS, needs="tc",
               unavailable=impair.netem_missing, **common),
    )


_ACTIONS = {
    a.name: a
    for a in (
        Action("lab.veth_queues", "int", "veth queue count on both ends (ethtool -L DEV rx N tx N)",
               _apply_queues, _read_queues, min=lambda: 1, max=cpu_count),
        Action("lab.rps", "bool", "RPS: rps_cpus = all CPUs on every rx queue of the lab side (off: 0)",
               _apply_rps, _read_rps),
        Action("lab.gro", "bool", "GRO with rx-udp-gro-forwarding on both ends (ethtool -K)",
               _apply_gro, _read_gro),
        Action("lab.threaded_napi", "bool", "threaded NAPI on both ends (/sys/class/net/DEV/threaded)",
               _apply_threaded, _read_threaded),
        _config_action("lab.coredns_config", "the lab's CoreDNS", coredns, _read_coredns),
        _config_action("lab.coredns_shipped_config", "the lab's CoreDNS as shipped (default GOMAXPROCS)", coredns.Shipped,
                       lambda: _read_coredns(coredns.SHIPPED_SERVICE)),
        _config_action("lab.adguard_config", "the lab's AdGuard Home", adguard, _read_adguard),
        _config_action("lab.haproxy_config", "the lab's HAProxy", haproxy, _read_haproxy),
        _config_action("lab.caddy_config", "the lab's Caddy", caddy, _read_caddy),
        _config_action("lab.bind_config", "the lab's BIND", bind, _read_bind),
        *_impair_actions(),
    )
}


# ---------------------------------------------------------------- public


def list_actions() -> list[dict]:
    """The registered actions: [{name, type, min, max, choices, default, description}] (min/max None but for int, choices for enum)."""
    return [
        {"name": a.name, "type": a.type, "min": a.min() if a.min else None, "max": a.max() if a.max else None,
         "choices": list(a.choices) if a.choices else None, "default": a.default,
         "description": a.description + (f" (not available here: {why})" if (why := _unavailable(a)) else "")}
        for a in _ACTIONS.values()
    ]


def validate_setting(name: str, value: Any) -> int | bool | str:
    """The normalized value (int, bool or an enum's name) for a registered action; ActionError for unknown names or bad values."""
    action = _ACTIONS.get(name)
    if action is None:
        raise ActionError("action", f"unknown action {name!r} (known: {', '.join(_ACTIONS)})")
    if (why := _unavailable(action)) and value != action.default:
        raise ActionError(name, f"not available here: {why}")
    if action.type == "bool":
        return _as_bool(name, value)
    if action.choices:
        return _as_choice(name, value, action.choices)
    return _as_int(name, value, action.min(), action.max())


def _unavailable(action: Action) -> str | None:
    return action.unavailable() if action.unavailable else None


def apply_setting(name: str, value: Any) -> int | bool | str:
    """Validate, then apply a setting to the running lab; returns the value read back. Raises ActionError/ActionFailed."""
    normalized = validate_setting(name, value)
    lab = status(probe=False)
    if not lab.present:
        raise ActionFailed(f"{name}: the lab is not up ({lab.reason})")
    needs = _ACTIONS[name].needs
    if needs and which(needs) is None:
        raise ActionFailed(f"{name}: {needs} not installed (apt-get install {needs})")
    try:
        _ACTIONS[name].apply(normalized)
        return _ACTIONS[name].read()
    except CommandFailed as exc:
        raise ActionFailed(f"{name}={normalized}: {exc}") from exc


def read_setting(name: str) -> int | bool | str | None:
    """The current value of a registered action's setting in the lab (None if it cannot be read)."""
    if name not in _ACTIONS:
        raise ActionError("action", f"unknown action {name!r}")
    try:
        return _ACTIONS[name].read()
    except CommandFailed:
        return None


def held(name: str) -> bool:
    """True while the process that applied the action's current value still runs (it may still need it)."""
    action = _ACTIONS.get(name)
    return bool(action and action.held and action.held())


def defaults(names: Iterable[str]) -> dict[str, Any]:
    """The default of each named action that has one (a variant that does not set it runs with it; a campaign restores it)."""
    return {name: _ACTIONS[name].default for name in names if name in _ACTIONS and _ACTIONS[name].default is not None}


def register_settings() -> None:
    """Register the lab's actions as the `lab.` variant settings (kneeboard/variant_settings.py)."""
    register(SettingProvider("lab.", names=lambda: list(_ACTIONS), validate=validate_setting, apply=apply_setting,
                             read=read_setting, defaults=defaults))
