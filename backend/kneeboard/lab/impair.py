"""Impairments of the lab's link (the veth kbh0 ⇄ kbl0) that restore themselves (issue 39).

Loss: nftables, one dedicated table `inet kneeboard_impair` in each namespace, dropping `numgen random mod 1000 < N`
of the packets as they arrive from the link (kbl0 in kblab: host → lab; kbh0 on the host: lab → host), so the sender's
TCP sees a packet lost on the wire (a drop on the way out would be a local error, not a loss). Named counters count
what arrived and what was dropped. Rate: `tbf` as the root qdisc of both ends (handle 4b42:). Delay: `netem`, only where
a probe finds it (this project's CI kernel has none). Removal is one `delete table` per namespace and one `tc qdisc del`
of our own handle per end: nobody else's rules or qdiscs are touched.

The process that last impaired the link is recorded (pid and start time) beside the lab's state file: a worker that
starts finds an impairment whose setter is gone and removes it; `kneeboard lab up` and `lab down` remove it always.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import threading
from contextlib import contextmanager
from typing import Iterator

from kneeboard.lab import backends, processes
from kneeboard.lab_link import HOST_IF, LAB_ADDR, LAB_IF, NETNS, STATE_FILE
from kneeboard.lab.system import CommandFailed, in_netns, run, which

TABLE = "kneeboard_impair"
HANDLE = "4b42:"  # our root qdisc's handle: only a qdisc with it is ours to delete
SIDES = ((HOST_IF, None, "host"), (LAB_IF, NETNS, "lab"))  # the link's end, its namespace, its name in records
LOSS_SCALE = 1000  # loss in per-mille: numgen random mod 1000
LOSS_MAX = 1000
RATE_MAX_MBIT = 10_000
DELAY_MAX_MS = 10_000
TBF_LATENCY_MS = 50  # how long a packet may wait in the bucket before tbf drops it
SETTER_FILE = STATE_FILE.with_name("kneeboard-lab-impair.json")
_lock = threading.Lock()  # the events thread and the point's own code may impair at once
_measuring = threading.Event()  # a point is counting: loss 0 keeps the counting rules until the point ends


# ---------------------------------------------------------------- probes


@functools.lru_cache(maxsize=1)
def netem_missing() -> str | None:
    """Why delay cannot be had here (no `netem` qdisc in this kernel, no tc, not root), or None: a real probe, adding
    netem to the loopback of a throwaway network namespace (`unshare --net`), nothing of the lab's touched."""
    if which("tc") is None or which("unshare") is None:
        return "tc or unshare not installed"
    if os.geteuid() != 0:
        return "unknown: the netem probe needs root"
    proc = run(["unshare", "--net", "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"], check=False)
    if proc.returncode != 0:
        return f"this kernel has no netem (tc: {(proc.stderr or proc.stdout).strip()[:120]})"
    return None


# ---------------------------------------------------------------- read


def _nft(netns: str | None, *args: str, input_text: str | None = None, check: bool = True):
    return run(in_netns(netns, ["nft", *args]), input_text=input_text, check=check)


def _table(netns: str | None, table: str = TABLE) -> list[dict]:
    """Our table's objects (`nft -j list table`), [] when it is absent (or nft/the namespace is)."""
    if which("nft") is None:
        return []
    proc = _nft(netns, "-j", "list", "table", "inet", table, check=False)
    if proc.returncode != 0:
        return []
    return json.loads(proc.stdout).get("nftables", [])


def _loss_of(objects: list[dict]) -> int:
    """The per-mille in the drop rule (`numgen random mod 1000 < N`), 0 without one."""
    for obj in objects:
        for expr in obj.get("rule", {}).get("expr", []):
            match = expr.get("match", {})
            if "numgen" in (match.get("left") or {}):
                return int(match["right"])
    return 0


def _counters(objects: list[dict]) -> dict[str, int]:
    return {o["counter"]["name"]: o["counter"]["packets"] for o in objects if "counter" in o}


def table_counters(table: str, netns: str | None = None) -> dict[str, int]:
    """The named packet counters of nftables table `inet TABLE` ({} when it is absent)."""
    return _counters(_table(netns, table))


def _qdisc(dev: str, netns: str | None) -> dict | None:
    """Our root qdisc on dev (tbf or netem with handle 4b42:), None when the root is not ours."""
    proc = run(in_netns(netns, ["tc", "-j", "qdisc", "show", "dev", dev, "root"]), check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        return None
    found = [q for q in json.loads(proc.stdout) if q.get("root") and q.get("handle") == HANDLE]
    return found[0] if found else None


def state() -> dict[str, int]:
    """What is in force on the link now: {loss_permille, rate_mbit, delay_ms} (0: none), read from the system."""
    shaper = (_qdisc(LAB_IF, NETNS) if which("tc") else None) or {"kind": None, "options": {}}
    options, netem = shaper["options"], shaper["kind"] == "netem"
    rate = (options.get("rate") or {}).get("rate", 0) if netem else options.get("rate", 0)  # bytes/s
    delay = (options.get("delay") or {}).get("delay", 0) if netem else 0  # seconds
    return {"loss_permille": _loss_of(_table(NETNS)), "rate_mbit": round(int(rate) * 8 / 1e6), "delay_ms": round(float(delay) * 1000)}


def describe() -> str:
    """What is in force on the link, for the environment facts: "none" or e.g. "loss 10/1000, rate 100 Mbit/s"."""
    try:
        now = state()
    except (CommandFailed, ValueError) as exc:
        return f"unknown ({exc})"
    said = [f"loss {now['loss_permille']}/{LOSS_SCALE}" if now["loss_permille"] else "",
            f"rate {now['rate_mbit']} Mbit/s" if now["rate_mbit"] else "", f"delay {now['delay_ms']} ms" if now["delay_ms"] else ""]
    return ", ".join(filter(None, said)) or "none"


def setter_alive() -> bool:
    """True while the process that last impaired the link still runs (a worker under a variant or a point)."""
    setter = processes.load_state(SETTER_FILE)
    return processes.is_alive(setter.get("pid"), setter.get("started"))


def tcp_retransmissions() -> dict[str, int | None]:
    """TCP segments retransmitted so far (`RetransSegs` of /proc/net/snmp) on the host and in the lab's namespace."""
    found: dict[str, int | None] = {}
    for _dev, netns, side in SIDES:
        proc = run(in_netns(netns, ["cat", "/proc/net/snmp"]), check=False)
        rows = [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("Tcp:")]
        found[side] = int(dict(zip(rows[0], rows[1]))["RetransSegs"]) if proc.returncode == 0 and len(rows) == 2 else None
    return found


def packets() -> dict[str, dict[str, int]]:
    """Per end of the link, the packets that arrived from it and those dropped, since its table was made ({} without)."""
    return {side: c for _dev, netns, side in SIDES if (c := _counters(_table(netns)))}


# ---------------------------------------------------------------- change


def _record_setter() -> None:
    processes.save_state(SETTER_FILE, {"pid": os.getpid(), "started": processes.start_time(os.getpid())})


def set_loss(permille: int) -> None:
    """Drop `permille`/1000 of the packets arriving from the link, both ways (0: none). Rules are rewritten in one
    transaction; the named counters are kept across changes. Raises CommandFailed."""
    with _lock:
        if permille == 0 and not _measuring.is_set():
            for _dev, netns, _side in SIDES:
                _nft(netns, "delete", "table", "inet", TABLE, check=False)
            _forget_if_clear()
            return
        _record_setter()
        for dev, netns, _side in SIDES:
            _nft(netns, "-f", "-", input_text=loss_rules(TABLE, dev, permille))


def loss_rules(table: str, dev: str, permille: int) -> str:
    """The nft script of table `table`: count what arrives on `dev` and drop `permille`/1000 of it (0: count only);
    applied again, it replaces the rules and keeps the counters."""
    drop = f'add rule inet {table} arrive iifname "{dev}" numgen random mod {LOSS_SCALE} < {permille} counter name "dropped" drop\n'
    return (f"add table inet {table}\n"
            f"add counter inet {table} arrived\n"
            f"add counter inet {table} dropped\n"
            f"add chain inet {table} arrive {{ type filter hook prerouting priority -300; policy accept; }}\n"
            f"flush chain inet {table} arrive\n"
            f'add rule inet {table} arrive iifname "{dev}" counter name "arrived"\n'
            + (drop if permille else ""))


def set_shaping(rate_mbit: int | None = None, delay_ms: int | None = None) -> None:
    """Limit the link to rate_mbit each way (tbf) and/or delay it by delay_ms each way (netem, with its own rate);
    None keeps the current value, 0 removes it. Raises CommandFailed (delay without netem included)."""
    with _lock:
        now = state()
        rate = now["rate_mbit"] if rate_mbit is None else rate_mbit
        delay = now["delay_ms"] if delay_ms is None else delay_ms
        if delay and netem_missing():
            raise CommandFailed(f"delay: {netem_missing()}")
        if rate or delay:
            _record_setter()
        for dev, netns, _side in SIDES:
            if delay:
                spec = ["netem", "delay", f"{delay}ms", *(["rate", f"{rate}mbit"] if rate else [])]
            elif rate:
                burst = max(65536, rate * 1_000_000 // 8 // 100)  # 10 ms of the rate, at least one GSO packet
                spec = ["tbf", "rate", f"{rate}mbit", "burst", str(burst), "latency", f"{TBF_LATENCY_MS}ms"]
            else:
                if _qdisc(dev, netns):
                    run(in_netns(netns, ["tc", "qdisc", "del", "dev", dev, "root"]))
                continue
            run(in_netns(netns, ["tc", "qdisc", "replace", "dev", dev, "root", "handle", HANDLE, *spec]))
        if not (rate or delay):
            _forget_if_clear()


def _forget_if_clear() -> None:
    if not any(_table(netns) or (which("tc") and _qdisc(dev, netns)) for dev, netns, _side in SIDES):
        SETTER_FILE.unlink(missing_ok=True)


def clear() -> dict[str, int]:
    """Remove every impairment (our tables and root qdiscs, both ends); what was in force before. Never raises."""
    try:
        before = state()
    except (CommandFailed, ValueError):
        before = {}
    with _lock:
        for dev, netns, _side in SIDES:
            if which("nft"):
                _nft(netns, "delete", "table", "inet", TABLE, check=False)
            if which("tc") and _qdisc(dev, netns):
                run(in_netns(netns, ["tc", "qdisc", "del", "dev", dev, "root"]), check=False)
        try:
            SETTER_FILE.unlink(missing_ok=True)
        except OSError:  # not root: nothing of ours could have been set either
            pass
    return {k: v for k, v in before.items() if v}


def clear_orphaned() -> dict[str, int]:
    """At a worker's start: remove an impairment whose setter is gone (a worker killed mid-point); one a live process
    set is left. What was removed ({} when nothing)."""
    if setter_alive():
        return {}
    return clear()


# ---------------------------------------------------------------- a point


def crosses_link(host: str) -> bool:
    """Whether load to `host` crosses the lab's link: the lab's address or a backend's (routed through the lab). A
    point elsewhere (loopback) leaves the link and whoever impaired it alone."""
    try:
        return host == LAB_ADDR or ipaddress.ip_address(host) in ipaddress.ip_network(backends.SUBNET)
    except ValueError:
        return False


@contextmanager
def beside_point(host: str, impairing: bool, refused: bool) -> Iterator[dict]:
    """Around a point: when it loads the lab (its traffic crosses the link) or an impairment is scheduled, the record of what it cost
    (`in_force` at its start, packets arrived/dropped on the link, TCP retransmissions on both ends) is filled in
    after it, and the link is put back as it was at its start (an event's impairment ends with the point; a variant's
    stays for the variant's next point, removed after the campaign). Never raises for the point's sake."""
    record: dict = {}
    if refused or not (crosses_link(host) or impairing):
        yield record
        return
    try:
        start = state()
        counting = impairing or start["loss_permille"] > 0
        if counting:
            _measuring.set()
            set_loss(start["loss_permille"])
        before = (packets() if counting else {}), tcp_retransmissions()
    except (CommandFailed, ValueError, KeyError) as exc:
        record["error"] = f"could not read the link before the point: {exc}"
        yield record
        return
    try:
        yield record
    finally:
        _measuring.clear()
        try:
            _finish(record, start, before, counting)
        except (CommandFailed, ValueError, KeyError) as exc:
            record["error"] = f"could not read or restore the link after the point: {exc}"
            clear()


def _finish(record: dict, start: dict, before: tuple, counting: bool) -> None:
    packets_after, retrans_after = (packets() if counting else {}), tcp_retransmissions()
    record["in_force"] = {k: v for k, v in start.items() if v}
    record["tcp_retransmissions"] = {side: None if retrans_after[side] is None or before[1][side] is None
                                     else retrans_after[side] - before[1][side] for side in retrans_after}
    if counting:
        per_side = {side: {name: n - before[0].get(side, {}).get(name, 0) for name, n in c.items()}
                    for side, c in packets_after.items()}
        arrived = sum(c.get("arrived", 0) for c in per_side.values())
        dropped = sum(c.get("dropped", 0) for c in per_side.values())
        record["packets"] = {"arrived": arrived, "dropped": dropped,
                             "dropped_pct": round(100 * dropped / arrived, 3) if arrived else None, "per_side": per_side}
    if start["loss_permille"] or start["rate_mbit"] or start["delay_ms"]:
        set_loss(start["loss_permille"])
        set_shaping(start["rate_mbit"], start["delay_ms"])
    elif counting or SETTER_FILE.exists():  # an event's (or anyone's) impairment during a clean point
        clear()
