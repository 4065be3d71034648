"""What a point's monitors say of the server, by role: its request count, its process's CPU, where requests were
dropped, its error answers, GC pauses and every CPU's time by mode. Pure (reads the query packs, which are data).

A point's monitors are its stored summaries by label (`extra.monitors`): an exporter's is filed under
"exporter.<name>" with `{"packs": {pack: {query: {key: mean over the steady window}}}}`; the older node monitor's
under "node" with `soft_mean_pct_by_cpu`. Which query plays which role is the pack's to say (`role:` in its file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kneeboard.exporters.packs import Query, all_packs
from kneeboard.tools import units

EXPORTER = "exporter."


@dataclass
class Reading:
    """One figure and where it came from ("exporter coredns: coredns_dns_requests_total")."""

    value: float
    source: str
    what: str = ""


@dataclass
class Readings:
    """Everything the server evidence reads from one point's monitors (None / empty where nothing said it)."""

    requests: Reading | None = None  # requests per second the server counted
    process_cpu: Reading | None = None  # the server process's CPU, % of one CPU
    drops: list[Reading] = field(default_factory=list)  # per second, each with the place it names
    errors: list[Reading] = field(default_factory=list)  # error answers per second
    gc_pause: Reading | None = None  # % of wall time the server was paused for GC
    cpus: dict[str, dict[str, float]] = field(default_factory=dict)  # CPU → mode → % of that CPU
    cpus_source: str | None = None
    exporters: list[str] = field(default_factory=list)  # the exporters that were read


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


def read(monitors: dict[str, Any] | None) -> Readings:
    """A point's monitor summaries → Readings; the first exporter (by name) to give a role's figure gives it."""
    found = Readings()
    packs = all_packs()
    for label in sorted(monitors or {}):
        summary = (monitors or {})[label]
        if not isinstance(summary, dict):
            continue
        if label == "node" and isinstance(summary.get("soft_mean_pct_by_cpu"), dict) and not found.cpus:
            found.cpus = {cpu: {"softirq": v} for cpu, v in summary["soft_mean_pct_by_cpu"].items() if number(v) is not None}
            found.cpus_source = "node monitor (softirq only)"
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
                    _take(found, query, values, f"exporter {name}: {query.metric}")
    return found


def _take(found: Readings, query: Query, values: dict[str, Any], source: str) -> None:
    """File one query's values under its role (the first exporter to give a single-valued role keeps it)."""
    if query.role == "cpu":
        if not found.cpus or found.cpus_source == "node monitor (softirq only)":
            found.cpus, found.cpus_source = _cpu_modes(values), source
        return
    total = _total(query, values, errors_only=query.role == "errors")
    if total is None:
        return
    reading = Reading(total, source, query.explains or query.title)
    if query.role in ("drop", "errors"):
        (found.drops if query.role == "drop" else found.errors).append(reading)
    elif query.role == "requests" and found.requests is None:
        found.requests = reading
    elif query.role == "process_cpu" and (found.process_cpu is None or _same_exporter(found.requests, source)):
        found.process_cpu = reading  # the process CPU of the exporter that counts requests is the server's
    elif query.role == "gc_pause" and found.gc_pause is None:
        found.gc_pause = reading


def _same_exporter(requests: Reading | None, source: str) -> bool:
    return requests is not None and requests.source.split(":")[0] == source.split(":")[0]
