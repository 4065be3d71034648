"""The observer's own readings of its host, once a second, from a /proc root (default /proc; recorded files in tests).

Pure: reads files under the root and computes figures, no DB, no web. A Snapshot is one reading of the counters
(per-CPU ticks by mode from stat, NET_RX softirq counts from softirqs, softnet processed/dropped/time-squeezed from
net/softnet_stat, an interface's drops from net/dev); `between` turns two snapshots into per-second figures:
per-CPU utilisation by mode in % (softirq included, as mpstat shows it), NET_RX per second per CPU, softnet drops
and squeezes per second, the interface's receive and transmit drops per second. The server process's CPU is the
process monitor's reading (tools/process/read.py), not copied here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from kneeboard.tools.process import read as process_read

MODES = ("usr", "nice", "sys", "idle", "iowait", "irq", "soft", "steal")  # /proc/stat's order, mpstat's names


@dataclass(frozen=True)
class Snapshot:
    """One reading of the host's counters at `t` (seconds, any monotonic clock)."""

    t: float
    ticks: dict[str, dict[str, int]]  # "0", "1"… → mode → ticks since boot
    net_rx: dict[str, int]  # CPU → NET_RX softirqs since boot
    softnet: dict[str, tuple[int, int, int]]  # CPU → (processed, dropped, time squeezed)
    dev: dict[str, tuple[int, int]] = field(default_factory=dict)  # interface → (rx drop, tx drop)


def cpu_ticks(text: str) -> dict[str, dict[str, int]]:
    """Per-CPU ticks by mode from /proc/stat's cpuN lines (guest time is already in user)."""
    found: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if name.startswith("cpu") and name[3:].isdigit():
            values = [int(v) for v in rest.split()]
            found[name[3:]] = {mode: values[i] for i, mode in enumerate(MODES) if i < len(values)}
    return found


def net_rx(text: str) -> dict[str, int]:
    """NET_RX softirq counts per CPU from /proc/softirqs (CPU numbers from its header)."""
    lines = text.splitlines()
    cpus = [c[3:] for c in lines[0].split()] if lines else []
    for line in lines[1:]:
        name, _, rest = line.partition(":")
        if name.strip() == "NET_RX":
            return {cpu: int(v) for cpu, v in zip(cpus, rest.split())}
    return {}


def softnet(text: str) -> dict[str, tuple[int, int, int]]:
    """(processed, dropped, time squeezed) per CPU from /proc/net/softnet_stat (hex; the CPU is column 13 when the
    kernel gives it, else the row's place)."""
    found: dict[str, tuple[int, int, int]] = {}
    for row, line in enumerate(text.splitlines()):
        values = [int(v, 16) for v in line.split()]
        if len(values) < 3:
            continue
        cpu = str(values[12]) if len(values) > 12 else str(row)
        found[cpu] = (values[0], values[1], values[2])
    return found


def dev_drops(text: str) -> dict[str, tuple[int, int]]:
    """(receive drops, transmit drops) per interface from /proc/net/dev."""
    found: dict[str, tuple[int, int]] = {}
    for line in text.splitlines()[2:]:
        name, _, rest = line.partition(":")
        values = rest.split()
        if len(values) >= 12:
            found[name.strip()] = (int(values[3]), int(values[11]))
    return found


def _text(root: str, path: str) -> str:
    try:
        with open(os.path.join(root, path)) as file:
            return file.read()
    except OSError:
        return ""


def snapshot(root: str = "/proc", t: float = 0.0) -> Snapshot:
    """Read the host's counters under `root` (a missing file gives empty figures: a kernel without it)."""
    return Snapshot(t=t, ticks=cpu_ticks(_text(root, "stat")), net_rx=net_rx(_text(root, "softirqs")),
                    softnet=softnet(_text(root, "net/softnet_stat")), dev=dev_drops(_text(root, "net/dev")))


def utilisation(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    """Per-CPU % of time in each mode between two stat readings (mpstat's figures); a CPU without ticks is left out."""
    found: dict[str, dict[str, float]] = {}
    for cpu, modes in after.items():
        delta = {mode: modes[mode] - before.get(cpu, {}).get(mode, 0) for mode in modes}
        total = sum(delta.values())
        if cpu in before and total > 0:
            found[cpu] = {mode: round(100.0 * value / total, 2) for mode, value in delta.items()}
    return found


def between(before: Snapshot, after: Snapshot, interface: str | None = None) -> dict:
    """Per-second figures between two snapshots: per-CPU utilisation by mode, NET_RX/s, softnet drops and squeezes
    per second per CPU, and the interface's drops per second (None when no interface is named or it is absent)."""
    seconds = after.t - before.t
    if seconds <= 0:
        raise ValueError("snapshots out of order")

    def rate(a: int, b: int) -> float:
        return round((a - b) / seconds, 2)

    drops = None
    if interface and interface in after.dev and interface in before.dev:
        drops = {"rx_drop_s": rate(after.dev[interface][0], before.dev[interface][0]),
                 "tx_drop_s": rate(after.dev[interface][1], before.dev[interface][1])}
    return {
        "cpus": utilisation(before.ticks, after.ticks),
        "net_rx_s": {cpu: rate(n, before.net_rx.get(cpu, n)) for cpu, n in after.net_rx.items()},
        "softnet_drop_s": {cpu: rate(v[1], before.softnet.get(cpu, v)[1]) for cpu, v in after.softnet.items()},
        "squeeze_s": {cpu: rate(v[2], before.softnet.get(cpu, v)[2]) for cpu, v in after.softnet.items()},
        "interface": drops,
    }


def process_cpu_s(name: str) -> float:
    """The server process's CPU seconds (every process of that name on this host), the process monitor's reading."""
    return round(sum(entry[2] for entry in process_read.scan(name, None)), 2)


def summary(seconds: list[dict], observer: str) -> dict:
    """A point's per-second readings (`between`'s figures) as the server host's monitor summary, marked with the
    observer that read them: every CPU's mean % by mode, and the peaks and totals of NET_RX, softnet and drops."""
    by_cpu: dict[str, dict[str, list[float]]] = {}
    for second in seconds:
        for cpu, modes in second["cpus"].items():
            for mode, pct in modes.items():
                by_cpu.setdefault(cpu, {}).setdefault(mode, []).append(pct)

    def peak(key: str) -> float | None:
        values = [sum(s[key].values()) for s in seconds if s.get(key)]
        return max(values) if values else None

    return {"observer": observer, "seconds": len(seconds),
            "mean_pct_by_cpu": {cpu: {m: round(sum(v) / len(v), 2) for m, v in modes.items()}
                                for cpu, modes in by_cpu.items()},
            "net_rx_max_s": peak("net_rx_s"), "softnet_drop_max_s": peak("softnet_drop_s"),
            "squeeze_max_s": peak("squeeze_s")}
