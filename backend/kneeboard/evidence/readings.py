"""What a point's monitors say of the server, by role: its request count, its process's CPU, where requests were
dropped, its error answers, GC pauses, every CPU's time by mode, and the host's CPUs as the load generator's host saw
them. Pure (reads the query packs, which are data).

A point's monitors are its stored summaries by label (`extra.monitors`): an exporter's is filed under
"exporter.<name>" with `{"packs": {pack: {query: {key: mean over the load}}}}`; the node monitor's under "node"
(`mean_pct_by_cpu`, every CPU's time by mode, or in older points `soft_mean_pct_by_cpu`, softirq alone); the mpstat
monitor's under "mpstat" (`all_avg_<mode>_pct`, `cpu_max_<mode>_pct`, `cpu_max_busy_pct`, `cpus`, and in newer points
`mean_pct_by_cpu`) — mpstat runs beside the load generator, so it reads the generator's host, which is the server's
too when the two share it (loopback, the lab); the process monitor's under "process" (`cpu_s`, `window_s`,
`cpu_pct_of_one`, `usable_cpus`: the server process's own CPU from /proc). Which exporter query plays which role is
the pack's to say (`role:` in its file). Modes are named as node_exporter names them (user, system, softirq, idle…).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kneeboard.exporters.packs import Query, all_packs
from kneeboard.tools import units

EXPORTER = "exporter."
MODES = {"usr": "user", "nice": "nice", "sys": "system", "irq": "irq", "soft": "softirq", "idle": "idle",
         "iowait": "iowait", "steal": "steal"}  # mpstat's (and the node monitor's) field → node_exporter's mode
NODE_SOFTIRQ_ONLY = "node monitor (softirq only)"
OBSERVER_SOURCE = "read on the server by observer"  # the observer's own per-CPU reading (observers/readings.py)
GENERATOR_HOST = "mpstat on the load generator's host"


@dataclass
class Reading:
    """One figure and where it came from ("exporter coredns: coredns_dns_requests_total")."""

    value: float
    source: str
    what: str = ""
    count: float | None = None  # a counter's increase over the whole load (its readings right before and after it)
    window: dict[str, Any] | None = None  # those readings' times: {"before_t", "after_t", "load_s"}


@dataclass
class HostCpus:
    """The load generator's host's CPUs as the mpstat monitor read them over the point: how many, their mean busy share,
    the busiest CPU's busiest interval, every mode's mean share, and each CPU's mean modes when the summary has them."""

    cpus: int | None
    mean_busy: float | None  # % of every CPU's time busy (not idle, not waiting for I/O), over the point
    busiest: float | None  # % busy of the busiest CPU in its busiest interval
    modes: dict[str, float] = field(default_factory=dict)  # mode → mean % over every CPU
    by_cpu: dict[str, dict[str, float]] = field(default_factory=dict)  # CPU → mode → mean % (newer summaries only)
    source: str = GENERATOR_HOST


@dataclass
class Readings:
    """Everything the server evidence reads from one point's monitors (None / empty where nothing said it)."""

    requests: Reading | None = None  # requests per second the server counted
    process_cpu: Reading | None = None  # the server process's CPU, % of one CPU
    usable_cpus: float | None = None  # the CPUs the server process may use (the process monitor's usable_cpus)
    process_wait_pct: float | None = None  # time its threads were ready to run but waited for a CPU, % of one CPU
    host_busy_share: float | None = None  # the whole host's CPUs busy over the same window (the process monitor's /proc/stat)
    drops: list[Reading] = field(default_factory=list)  # per second, each with the place it names
    errors: list[Reading] = field(default_factory=list)  # error answers per second
    gc_pause: Reading | None = None  # % of wall time the server was paused for GC
    cpus: dict[str, dict[str, float]] = field(default_factory=dict)  # the server's host: CPU → mode → % of that CPU
    cpus_source: str | None = None
    host: HostCpus | None = None  # the load generator's host (mpstat)
    exporters: list[str] = field(default_factory=list)  # the exporters that were read

    def anything(self) -> bool:
        """Whether any monitor said anything the evidence reads."""
        return bool(self.requests or self.process_cpu or self.drops or self.errors or self.gc_pause or self.cpus
                    or self.host)


def number(value: Any) -> float | None:
    """value as a float when it is a finite number (not a bool), else None."""
    return float(value) if units.is_number(value) else None


def _total(query: Query, values: dict[str, Any], *, errors_only: bool = False) -> float | None:
    """The sum of a query's values (an errors query's without its ok_values), None when none is a number."""
    kept = [number(v) for k, v in values.items() if not (errors_only and k.split(".")[0] in query.ok_values)]
    numbers = [v for v in kept if v is not None]
    return sum(numbers) if numbers else None


def _cpu_modes(values: dict[str, Any]) -> dict[str, dict[str, float]]:
    """A `cpu` query's values keyed "CPU.mode" → {CPU: {mode: %}}."""
    cpus: dict[str, dict[str, float]] = {}
    for key, value in values.items():
        cpu, _, mode = key.partition(".")
        if mode and (share := number(value)) is not None:
            cpus.setdefault(cpu, {})[mode] = share
    return cpus


def _by_cpu(table: Any) -> dict[str, dict[str, float]]:
    """A monitor's {CPU: {field: %}} under node_exporter's mode names (numbers only; an empty CPU left out)."""
    if not isinstance(table, dict):
        return {}
    cpus = {str(cpu): {MODES.get(f, f): v for f, value in modes.items() if (v := number(value)) is not None}
            for cpu, modes in table.items() if isinstance(modes, dict)}
    return {cpu: modes for cpu, modes in cpus.items() if modes}


def _node(found: Readings, summary: dict[str, Any]) -> None:
    """The node monitor's whole reading: every CPU's time by mode, else (older points) its softirq alone."""
    if found.cpus and found.cpus_source != NODE_SOFTIRQ_ONLY:
        return
    if cpus := _by_cpu(summary.get("mean_pct_by_cpu")):
        found.cpus, found.cpus_source = cpus, "node monitor"
    elif isinstance(summary.get("soft_mean_pct_by_cpu"), dict) and not found.cpus:
        found.cpus = {cpu: {"softirq": v} for cpu, value in summary["soft_mean_pct_by_cpu"].items()
                      if (v := number(value)) is not None}
        found.cpus_source = NODE_SOFTIRQ_ONLY


def _observer(found: Readings, summary: dict[str, Any]) -> None:
    """The observer's own reading on the server's host (observers/readings.py): its CPUs by mode before any other
    monitor's (its label sorts after theirs, so it replaces them), said as read on the server by that observer."""
    source = f"{OBSERVER_SOURCE} {summary.get('observer') or '?'}"
    if cpus := _by_cpu(summary.get("mean_pct_by_cpu")):
        found.cpus, found.cpus_source = cpus, source
    if (pct := number(summary.get("cpu_pct_of_one"))) is not None and summary.get("process"):
        name = summary["process"]
        found.process_cpu = Reading(pct, f"{source}: {name}'s CPU from /proc", f"{name}'s CPU",
                                    count=number(summary.get("cpu_s")))


def _mpstat(summary: dict[str, Any]) -> HostCpus | None:
    """The mpstat monitor's summary as the load generator's host's CPUs (None when it holds no busy figure)."""
    mean, busiest = number(summary.get("all_avg_busy_pct")), number(summary.get("cpu_max_busy_pct"))
    by_cpu = _by_cpu(summary.get("mean_pct_by_cpu"))
    if mean is None and busiest is None and not by_cpu:
        return None
    modes = {MODES[f]: v for f in MODES if (v := number(summary.get(f"all_avg_{f}_pct"))) is not None}
    cpus = number(summary.get("cpus"))
    return HostCpus(cpus=int(cpus) if cpus else (len(by_cpu) or None), mean_busy=mean, busiest=busiest, modes=modes,
                    by_cpu=by_cpu)


def _process(found: Readings, summary: dict[str, Any]) -> None:
    """The process monitor's reading: the server process's CPU from /proc over the load, and the CPUs it may use (none
    when it found no process of the name: its warning says so, and an exporter's process CPU may still stand)."""
    pct = number(summary.get("load_cpu_pct", summary.get("cpu_pct_of_one")))  # over the load, not the tool's wait after it
    if pct is None or not summary.get("pids"):
        return
    name = summary.get("process") or "the server"
    found.process_cpu = Reading(pct, f"process monitor: {name}'s CPU from /proc", f"{name}'s CPU",
                                count=number(summary.get("cpu_s")))
    found.usable_cpus = number(summary.get("usable_cpus"))
    wait, load_s = number(summary.get("runqueue_wait_s")), number(summary.get("load_s", summary.get("window_s")))
    found.process_wait_pct = 100.0 * wait / load_s if wait is not None and load_s else None
    busy, total = number(summary.get("host_busy_cpu_s")), number(summary.get("host_cpu_s"))
    found.host_busy_share = busy / total if busy is not None and total else None


def read(monitors: dict[str, Any] | None) -> Readings:
    """A point's monitor summaries → Readings; the process monitor gives the server's process CPU before any exporter,
    and the first exporter (by name) to give a role's figure gives it."""
    found = Readings()
    packs = all_packs()
    for label in sorted(monitors or {}):
        summary = (monitors or {})[label]
        if not isinstance(summary, dict):
            continue
        if label == "observer":
            _observer(found, summary)
        elif label == "node":
            _node(found, summary)
        elif label == "mpstat":
            found.host = _mpstat(summary)
        elif label == "process":
            _process(found, summary)
        if not label.startswith(EXPORTER) or not isinstance(summary.get("packs"), dict):
            continue
        name = label.removeprefix(EXPORTER)
        found.exporters.append(name)
        for pack_name, queries in summary["packs"].items():
            if pack_name not in packs or not isinstance(queries, dict):
                continue
            for query in packs[pack_name].queries:
                values = queries.get(query.name)
                if query.role and isinstance(values, dict):
                    _take(found, query, values, f"exporter {name}: {query.metric}", _counted(summary, pack_name, query))
    return found


def _counted(summary: dict[str, Any], pack_name: str, query: Query) -> tuple[float | None, dict | None]:
    """A counter's increase over the whole load and the readings' times, from an exporter summary's `window` (the
    readings right before and right after the load); (None, None) for older summaries and other kinds."""
    window = summary.get("window")
    if query.kind != "counter" or not isinstance(window, dict):
        return None, None
    increase = (window.get("counted") or {}).get(f"{pack_name}.{query.name}")
    numbers = [number(v) for v in (increase or {}).values()]
    times = {k: window.get(k) for k in ("before_t", "after_t", "load_s")}
    return (sum(n for n in numbers if n is not None) if increase else 0.0), times


def _take(found: Readings, query: Query, values: dict[str, Any], source: str,
          counted: tuple[float | None, dict | None] = (None, None)) -> None:
    """File one query's values under its role (the first exporter to give a single-valued role keeps it; the process
    monitor's CPU, read from /proc, is kept over any exporter's)."""
    if query.role == "cpu":
        if not found.cpus or found.cpus_source == NODE_SOFTIRQ_ONLY:
            found.cpus, found.cpus_source = _cpu_modes(values), source
        return
    total = _total(query, values, errors_only=query.role == "errors")
    if total is None:
        return
    reading = Reading(total, source, query.explains or query.title, count=counted[0], window=counted[1])
    if query.role in ("drop", "errors"):
        (found.drops if query.role == "drop" else found.errors).append(reading)
    elif query.role == "requests" and found.requests is None:
        found.requests = reading
    elif query.role == "process_cpu" and not _from_proc(found.process_cpu) and (
            found.process_cpu is None or _same_exporter(found.requests, source)):
        found.process_cpu = reading  # the process CPU of the exporter that counts requests is the server's
    elif query.role == "gc_pause" and found.gc_pause is None:
        found.gc_pause = reading


def _from_proc(reading: Reading | None) -> bool:
    return reading is not None and reading.source.startswith("process monitor")


def _same_exporter(requests: Reading | None, source: str) -> bool:
    return requests is not None and requests.source.split(":")[0] == source.split(":")[0]
