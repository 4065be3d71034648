"""The bottleneck named by the USE method (utilisation, saturation, errors) from one point's readings. Pure.

Each rule looks at one resource and, when it has the data, gives a candidate with its closeness to saturation
(value / threshold). The candidate closest to (or over) its threshold is the bottleneck when it is over; the other
candidates over theirs are added to its evidence. Nothing over any threshold: "none", with the busiest resource
said; no data: "none" saying what is missing. Thresholds are the module's constants.
"""

from __future__ import annotations

from dataclasses import dataclass

from .readings import Readings

SOFTIRQ_PCT = 90.0  # one CPU's softirq at least this…
IDLE_ELSEWHERE_PCT = 25.0  # …while another CPU is at least this idle: one receive queue does the network stack's work
BUSY_PCT = 95.0  # a CPU this busy (or the CPUs on average) is saturated
DROP_SHARE_PCT = 1.0  # drops (or error answers) at least this share of the requests sent
GC_PAUSE_PCT = 5.0  # GC pauses stop the server at least this share of the time
PROCESS_CPU_SHARE = 0.95  # the server process uses this share of every CPU


@dataclass
class Candidate:
    """A resource a rule judged: how close to its threshold (score ≥ 1: over it) and the words that say so."""

    resource: str
    kind: str  # "utilisation", "saturation" or "errors"
    score: float
    value: float
    threshold: float
    text: str

    def as_dict(self, evidence: list[str]) -> dict:
        """The bottleneck as the analysis stores it."""
        return {"resource": self.resource, "kind": self.kind, "text": self.text, "evidence": evidence,
                "value": self.value, "threshold": self.threshold}


def busy(modes: dict[str, float]) -> float | None:
    """% of a CPU not idle (nor waiting for I/O), from its time by mode; None without an idle figure."""
    if "idle" not in modes:
        return None
    return max(0.0, 100.0 - modes["idle"] - modes.get("iowait", 0.0))


def _cpu_name(cpu: str) -> str:
    return f"CPU{cpu}"


def one_queue(r: Readings) -> Candidate | None:
    """One CPU's softirq near its whole time while another CPU idles: one receive queue (seed 003)."""
    soft = {cpu: m["softirq"] for cpu, m in r.cpus.items() if "softirq" in m}
    if len(soft) < 2:
        return None
    top = max(soft, key=soft.get)
    idle = {cpu: m.get("idle") for cpu, m in r.cpus.items() if cpu != top and m.get("idle") is not None}
    if not idle:
        return None
    spare = max(idle, key=idle.get)
    if idle[spare] < IDLE_ELSEWHERE_PCT:
        return None
    return Candidate(f"{_cpu_name(top)} softirq", "utilisation", soft[top] / SOFTIRQ_PCT, soft[top], SOFTIRQ_PCT,
                     f"{_cpu_name(top)}'s softirq is {soft[top]:.0f} % while {_cpu_name(spare)} is {idle[spare]:.0f} % idle: "
                     "one receive queue does the network stack's work (more queues or RPS would spread it)")


def cpu_bound(r: Readings) -> Candidate | None:
    """The CPUs busy on average: CPU-bound (seed 000; seed 003 once its receive queues were spread)."""
    loads = {cpu: b for cpu, m in r.cpus.items() if (b := busy(m)) is not None}
    if not loads:
        return None
    mean, least = sum(loads.values()) / len(loads), min(loads, key=loads.get)
    if len(loads) == 1:
        words = f"the CPU is {mean:.0f} % busy"
    elif loads[least] >= BUSY_PCT:
        words = f"{'both' if len(loads) == 2 else f'all {len(loads)}'} CPUs ≥ {loads[least]:.0f} % busy"
    else:
        words = f"the {len(loads)} CPUs are {mean:.0f} % busy on average (the least busy, {_cpu_name(least)}, {loads[least]:.0f} %)"
    return Candidate("CPU", "utilisation", mean / BUSY_PCT, mean, BUSY_PCT, f"{words}: CPU-bound")


def one_cpu_busy(r: Readings) -> Candidate | None:
    """One CPU busy (not with softirq) while another idles: one thread, or one queue's interrupts."""
    loads = {cpu: b for cpu, m in r.cpus.items() if (b := busy(m)) is not None}
    if len(loads) < 2:
        return None
    top = max(loads, key=loads.get)
    spare = min(loads, key=loads.get)
    if 100.0 - loads[spare] < IDLE_ELSEWHERE_PCT:
        return None
    return Candidate(_cpu_name(top), "utilisation", loads[top] / BUSY_PCT, loads[top], BUSY_PCT,
                     f"{_cpu_name(top)} is {loads[top]:.0f} % busy while {_cpu_name(spare)} is {100 - loads[spare]:.0f} % idle: "
                     "one thread (or one queue) limits")


def process_cpu(r: Readings) -> Candidate | None:
    """The server process using nearly every CPU itself."""
    if r.process_cpu is None or not r.cpus:
        return None
    share = r.process_cpu.value / (100.0 * len(r.cpus))
    return Candidate("server process CPU", "utilisation", share / PROCESS_CPU_SHARE, r.process_cpu.value, PROCESS_CPU_SHARE * 100 * len(r.cpus),
                     f"the server process uses {r.process_cpu.value / 100:.2f} of the {len(r.cpus)} CPUs")


def drops(r: Readings, sent_rate: float | None) -> list[Candidate]:
    """Each place requests were dropped, as a share of what the client sent (saturation)."""
    return _shares(r.drops, sent_rate, "saturation", "{what}: {share:.1f} % of requests dropped ({rate:,.0f}/s)")


def errors(r: Readings, sent_rate: float | None) -> list[Candidate]:
    """Each kind of error answer, as a share of what the client sent."""
    return _shares(r.errors, sent_rate, "errors", "{what}: {share:.1f} % of requests ({rate:,.0f}/s)")


def _shares(readings: list, sent_rate: float | None, kind: str, words: str) -> list[Candidate]:
    if not sent_rate:
        return []
    out = []
    for reading in readings:
        share = 100.0 * reading.value / sent_rate
        out.append(Candidate(reading.what, kind, share / DROP_SHARE_PCT, share, DROP_SHARE_PCT,
                             words.format(what=reading.what[:1].upper() + reading.what[1:], share=share, rate=reading.value)))
    return out


def gc(r: Readings) -> Candidate | None:
    """GC pauses taking a share of the server's time."""
    if r.gc_pause is None:
        return None
    return Candidate("GC", "utilisation", r.gc_pause.value / GC_PAUSE_PCT, r.gc_pause.value, GC_PAUSE_PCT,
                     f"GC pauses stop the server {r.gc_pause.value:.1f} % of the time")


def candidates(r: Readings, sent_rate: float | None) -> list[Candidate]:
    """Every rule's candidate for one point, closest to its threshold first."""
    queue, busiest = one_queue(r), one_cpu_busy(r)
    if queue and busiest and queue.resource.startswith(f"{busiest.resource} "):
        busiest = None  # the same CPU, busy with the softirq: the receive queue is the finding
    found = [c for c in (queue, cpu_bound(r), busiest, process_cpu(r), gc(r)) if c is not None]
    found += drops(r, sent_rate) + errors(r, sent_rate)
    return sorted(found, key=lambda c: c.score, reverse=True)


def name(r: Readings, sent_rate: float | None) -> dict:
    """The bottleneck of one point: {"resource", "kind", "text", "evidence", "value", "threshold"}; kind "none" when no
    resource is over its threshold (the closest is said) or when the point has no server data (what is missing is said)."""
    found = candidates(r, sent_rate)
    over = [c for c in found if c.score >= 1.0]
    if over:
        first = over[0]
        return first.as_dict([c.text for c in over[1:]])
    if not found:
        return {"resource": None, "kind": "none", "value": None, "threshold": None, "evidence": [],
                "text": "no bottleneck named: no exporter gave the server's CPUs, drops or errors for this point"}
    closest = found[0]
    return {"resource": None, "kind": "none", "value": closest.value, "threshold": closest.threshold, "evidence": [closest.text],
            "text": f"nothing near saturation: the closest is {closest.resource} at {closest.score * 100:.0f} % of its threshold"}
