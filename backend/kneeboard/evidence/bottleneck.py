"""The bottleneck named by the USE method (utilisation, saturation, errors) from one point's readings. Pure.

Each rule looks at one resource and, when it has the data, gives a candidate with its closeness to saturation
(value / threshold). The candidate closest to (or over) its threshold is the bottleneck when it is over; the other
candidates over theirs are added to its evidence. A rule's finding ("CPU-bound") is said only when it fired: a
candidate under its threshold is said by its figures alone. Nothing over any threshold: kind "none", saying either
that the client saw saturation that none of the resources read explains (with what was read and what was not), or,
when it saw none, the closest resource; nothing read: kind "none" saying so. Thresholds are the module's constants.

The CPUs are read from the server's host (a node_exporter, the node monitor) and from the load generator's (the mpstat
monitor), which is the server's too when the two share it (`shared`: loopback, the lab): then a full host is said to be
shared by the server and the generator, with the server process's own CPU when it was read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .readings import OBSERVER_SOURCE, HostCpus, Readings

SOFTIRQ_PCT = 90.0  # one CPU's softirq at least this…
IDLE_ELSEWHERE_PCT = 25.0  # …while another CPU is at least this idle: one receive queue does the network stack's work
BUSY_PCT = 95.0  # a CPU this busy (or the CPUs on average) is saturated
FULL_OTHERS_PCT = 100.0 - IDLE_ELSEWHERE_PCT  # one CPU saturated and no other with IDLE_ELSEWHERE_PCT idle: all are full
DROP_SHARE_PCT = 1.0  # drops (or error answers) at least this share of the requests sent
GC_PAUSE_PCT = 5.0  # GC pauses stop the server at least this share of the time
PROCESS_CPU_SHARE = 0.95  # the server process uses this share of the CPUs it may use
STARVED_WAIT_PCT = 10.0  # …or, with the host full and saturation seen, its threads waited this long for a CPU (% of the load)

PROCESS = "server process CPU"
NO_SIGN = "the client saw no sign of saturation and no resource read is over its threshold"  # what was seen, not a claim about the server
SERVER_CPUS = ""  # the server's own host's CPUs (node_exporter): resources named as they are ("CPU", "CPU1")
SHARED_HOST = "the host's CPUs"
GENERATOR_HOST = "the load generator's CPUs"


@dataclass
class Candidate:
    """A resource a rule judged: how close to its threshold (score ≥ 1: over it), the figures read and the rule's finding."""

    resource: str
    kind: str  # "utilisation", "saturation" or "errors"
    score: float
    value: float
    threshold: float
    figure: str  # what was read, in words
    finding: str = ""  # what the rule concludes, said only when it fired
    fired_text: str = ""  # the whole sentence when it fired, where "figure: finding" would not read well

    @property
    def fired(self) -> bool:
        """Whether the resource is at or over its threshold."""
        return self.score >= 1.0

    @property
    def text(self) -> str:
        """The figures, with the rule's finding when it fired."""
        if self.fired and self.fired_text:
            return self.fired_text
        return f"{self.figure}: {self.finding}" if self.fired and self.finding else self.figure

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


def _loads(cpus: dict[str, dict[str, float]]) -> dict[str, float]:
    return {cpu: b for cpu, m in cpus.items() if (b := busy(m)) is not None}


def _whose(group: str) -> str:
    """Where CPUs other than the server's own were read, in words after a CPU's name."""
    if group == SHARED_HOST:
        return " (the host the server shares with the load generator)"
    return " (the load generator's host)" if group == GENERATOR_HOST else ""


def one_queue(r: Readings, cpus: dict[str, dict[str, float]] | None = None, group: str = SERVER_CPUS) -> Candidate | None:
    """One CPU's softirq near its whole time while another CPU idles: one receive queue (seed 003)."""
    cpus = r.cpus if cpus is None else cpus
    soft = {cpu: m["softirq"] for cpu, m in cpus.items() if "softirq" in m}
    if len(soft) < 2:
        return None
    top = max(soft, key=soft.get)
    idle = {cpu: m.get("idle") for cpu, m in cpus.items() if cpu != top and m.get("idle") is not None}
    if not idle:
        return None
    spare = max(idle, key=idle.get)
    if idle[spare] < IDLE_ELSEWHERE_PCT:
        return None
    return Candidate(f"{_cpu_name(top)} softirq", "utilisation", soft[top] / SOFTIRQ_PCT, soft[top], SOFTIRQ_PCT,
                     f"{_cpu_name(top)}'s softirq is {soft[top]:.0f} % while {_cpu_name(spare)} is {idle[spare]:.0f} % idle"
                     f"{_whose(group)}",
                     "one receive queue does the network stack's work (more queues or RPS would spread it)")


def cpu_bound(r: Readings, cpus: dict[str, dict[str, float]] | None = None, group: str = SERVER_CPUS) -> Candidate | None:
    """The CPUs busy on average: CPU-bound (seed 000; seed 003 once its receive queues were spread)."""
    loads = _loads(r.cpus if cpus is None else cpus)
    if not loads:
        return None
    mean, least = sum(loads.values()) / len(loads), min(loads, key=loads.get)
    if len(loads) == 1:
        words = f"the CPU is {mean:.0f} % busy"
    elif loads[least] >= BUSY_PCT:
        words = f"{'both' if len(loads) == 2 else f'all {len(loads)}'} CPUs ≥ {loads[least]:.0f} % busy"
    else:
        words = f"the {len(loads)} CPUs are {mean:.0f} % busy on average (the least busy, {_cpu_name(least)}, {loads[least]:.0f} %)"
    return Candidate(group or "CPU", "utilisation", mean / BUSY_PCT, mean, BUSY_PCT, words + _whose(group), "CPU-bound")


def cpus_full(r: Readings, cpus: dict[str, dict[str, float]] | None = None, group: str = SERVER_CPUS) -> Candidate | None:
    """One CPU saturated and no other with a quarter of its time idle: every CPU is full, none has room to take work."""
    loads = _loads(r.cpus if cpus is None else cpus)
    if len(loads) < 2:
        return None
    top = max(loads, key=loads.get)
    least = min((c for c in loads if c != top), key=loads.get)
    score = min(loads[top] / BUSY_PCT, loads[least] / FULL_OTHERS_PCT)
    return Candidate(group or "CPU", "utilisation", score, loads[least], FULL_OTHERS_PCT,
                     f"{_cpu_name(top)} is {loads[top]:.0f} % busy and the least busy, {_cpu_name(least)}, "
                     f"{loads[least]:.0f} %{_whose(group)}", "the CPUs are full")


def one_cpu_busy(r: Readings, cpus: dict[str, dict[str, float]] | None = None, group: str = SERVER_CPUS) -> Candidate | None:
    """One CPU busy (not with softirq) while another idles: one thread, or one queue's interrupts."""
    loads = _loads(r.cpus if cpus is None else cpus)
    if len(loads) < 2:
        return None
    top = max(loads, key=loads.get)
    spare = min(loads, key=loads.get)
    if 100.0 - loads[spare] < IDLE_ELSEWHERE_PCT:
        return None
    return Candidate(_cpu_name(top), "utilisation", loads[top] / BUSY_PCT, loads[top], BUSY_PCT,
                     f"{_cpu_name(top)} is {loads[top]:.0f} % busy while {_cpu_name(spare)} is {100 - loads[spare]:.0f} % idle"
                     f"{_whose(group)}", "one thread (or one queue) limits")


def host_cpus(host: HostCpus, group: str, r: Readings) -> Candidate | None:
    """The host's CPUs from the mpstat monitor's summary (the busiest CPU's busiest interval, every CPU's mean): full when
    they are BUSY_PCT busy on average, or when the busiest is BUSY_PCT busy and the others FULL_OTHERS_PCT on average.
    Shared with the server, the words say so and give the server process's own CPU, or that it was not read."""
    if host.mean_busy is None:
        return None
    n, busiest, mean = host.cpus or 1, host.busiest, host.mean_busy
    score, value, threshold = mean / BUSY_PCT, mean, BUSY_PCT
    if busiest is not None and n > 1:
        others = (n * mean - busiest) / (n - 1)
        full = min(busiest / BUSY_PCT, others / FULL_OTHERS_PCT)
        if full > score:
            score, value, threshold = full, others, FULL_OTHERS_PCT
    peak = f"the busiest at {busiest:.0f} %, " if busiest is not None else ""
    figures = f"{peak}{'all ' if n > 1 else ''}{mean:.0f} % busy on average, by mpstat"
    if group == SHARED_HOST:
        held = (f"the server process held {r.process_cpu.value / 100:.2f} of them" if r.process_cpu is not None
                else "which process held them was not read")
        said = f"{group}, shared by the server and the load generator, are full ({figures}); {held}"
    else:
        said = f"{group} are full ({figures}): the load generator's host, not the server's, may be what limits"
    return Candidate(group, "utilisation", score, value, threshold, f"{group}: {figures}", fired_text=said)


def process_cpu(r: Readings, shared: str | None = None, saturation: str | None = None, host_full: bool = False) -> Candidate | None:
    """The server process using nearly every CPU it may use (the process monitor's usable CPUs, else the CPUs read on
    its host); or, where the client saw saturation, starved of them: the host's CPUs full with others' work while its
    threads waited for a CPU (a shared host, where what it gets stays under its usable CPUs though they limit it). None
    when its CPU, or how many CPUs it may use, was not read."""
    if r.process_cpu is None:
        return None
    if r.usable_cpus:
        usable, of = r.usable_cpus, f"of its {r.usable_cpus:g} usable CPU{'s' if r.usable_cpus != 1 else ''}"
    elif _loads(r.cpus):
        usable = len(_loads(r.cpus))
        of = f"of the {usable} CPUs"
    elif shared and r.host is not None and r.host.cpus:
        usable, of = r.host.cpus, f"of the host's {r.host.cpus} CPUs"
    else:
        return None
    share = r.process_cpu.value / (100.0 * usable)
    waited = r.process_wait_pct or 0.0
    said = f"the server process uses {r.process_cpu.value / 100:.2f} {of}"
    # the host full by any reading of it: the process monitor's /proc/stat over the load, or a CPU rule that fired on
    # what mpstat or a node_exporter read (`host_full`; a run beside other work read 94.5 % by the one while mpstat had
    # CPU0 at 100 % and CPU1 at 89 %: "the CPUs are full")
    host_busy = (r.host_busy_share or 0.0) * 100
    starved = bool(saturation) and waited >= STARVED_WAIT_PCT and (host_busy >= BUSY_PCT or host_full)
    if starved and share < PROCESS_CPU_SHARE:
        busy = f"the host's CPUs are {host_busy:.0f} % busy" if host_busy >= BUSY_PCT else "the host's CPUs are full"
        return Candidate(PROCESS, "utilisation", 1.0, r.process_cpu.value, PROCESS_CPU_SHARE * 100 * usable,
                         f"{said}, waiting for a CPU {waited / 100:.2f} of the time, {busy}",
                         fired_text=f"{said} while {busy} with others' work and its threads waited for a CPU "
                                    f"({waited / 100:.2f} of the time): it is limited by the CPU it may use, which it shares")
    return Candidate(PROCESS, "utilisation", share / PROCESS_CPU_SHARE, r.process_cpu.value,
                     PROCESS_CPU_SHARE * 100 * usable, said, "the server process is CPU-bound")


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


def _per_cpu(r: Readings, cpus: dict[str, dict[str, float]], group: str) -> list[Candidate]:
    """The per-CPU rules on one host's CPUs: one queue, CPU-bound (else full), one CPU busy (not the queue's CPU)."""
    queue, busiest = one_queue(r, cpus, group), one_cpu_busy(r, cpus, group)
    if queue and busiest and queue.resource.startswith(f"{busiest.resource} "):
        busiest = None  # the same CPU, busy with the softirq: the receive queue is the finding
    bound, full = cpu_bound(r, cpus, group), cpus_full(r, cpus, group)
    if bound and full and (bound.fired or not full.fired):
        full = None  # one finding for the CPUs as a whole: CPU-bound on average when it is
    elif bound and full:
        bound = None
    return [c for c in (queue, bound, full, busiest) if c is not None]


def _cpu_candidates(r: Readings, shared: str | None) -> list[Candidate]:
    """The CPU rules on what was read: the server's host's CPUs, and the load generator's host's (mpstat), unless
    those are the server's own, already read."""
    found = _per_cpu(r, r.cpus, SERVER_CPUS) if r.cpus else []
    if r.cpus_source and r.cpus_source.startswith(OBSERVER_SOURCE):
        for candidate in found:  # the server's own CPUs, read there by the observer, not on the generator
            candidate.figure += f" ({r.cpus_source})"
    host = r.host
    if host is None or (shared and _loads(r.cpus)):
        return found
    group = SHARED_HOST if shared else GENERATOR_HOST
    if _loads(host.by_cpu):
        return found + _per_cpu(r, host.by_cpu, group)
    return found + [c for c in (host_cpus(host, group, r),) if c is not None]


def candidates(r: Readings, sent_rate: float | None, shared: str | None = None, saturation: str | None = None) -> list[Candidate]:
    """Every rule's candidate for one point, closest to its threshold first (`saturation`: what the client saw here)."""
    cpus = _cpu_candidates(r, shared)
    found = cpus + [c for c in (process_cpu(r, shared, saturation, any(c.fired for c in cpus)), gc(r)) if c is not None]
    found += drops(r, sent_rate) + errors(r, sent_rate)
    return sorted(found, key=lambda c: c.score, reverse=True)


def unjudged(r: Readings, shared: str | None = None) -> list[str]:
    """Figures read that no rule could judge: the server process's CPU without the number of CPUs it may use, the busiest
    CPU without the host's mean."""
    found = []
    if r.process_cpu is not None and process_cpu(r, shared) is None:
        found.append(f"the server process uses {r.process_cpu.value / 100:.2f} of one CPU (how many it may use was not read)")
    if r.host is not None and r.host.mean_busy is None and r.host.busiest is not None and not _loads(r.host.by_cpu):
        found.append(f"the busiest CPU of the load generator's host at {r.host.busiest:.0f} %, by mpstat (no mean to judge)")
    return found


def not_read(r: Readings, shared: str | None = None) -> list[str]:
    """What the rules would have judged that no monitor read for this point."""
    missing = []
    if not _loads(r.cpus) and not (shared and r.host is not None):
        missing.append("the server host's CPUs (a node_exporter there, or the node monitor)")
    if r.process_cpu is None:
        missing.append("the server process's own CPU (the process monitor, or an exporter's process pack)")
    if not r.drops:
        missing.append("drop counters (a node_exporter on the server's host)")
    if not r.errors and r.requests is None:
        missing.append("the server's own request and error counts (an exporter of the server)")
    return missing


def name(r: Readings, sent_rate: float | None, *, shared: str | None = None, saturation: str | None = None) -> dict:
    """The bottleneck of one point: {"resource", "kind", "text", "evidence", "value", "threshold", "read", "not_read"};
    kind "none" when no resource is over its threshold — saying the saturation the client saw (`saturation`, its signs in
    words) with what was read and what was not, else the closest resource — or when nothing was read."""
    found = candidates(r, sent_rate, shared, saturation)
    missing = not_read(r, shared)
    said = {"read": [c.text for c in found] + unjudged(r, shared), "not_read": missing}
    over = sorted((c for c in found if c.fired), key=lambda c: c.resource != PROCESS)  # the server's own CPU is the most specific
    if over:
        return {**over[0].as_dict([c.text for c in over[1:]]), **said}
    none = {"resource": None, "kind": "none", "value": None, "threshold": None, "evidence": [], **said}
    if saturation:
        closest = {"value": found[0].value, "threshold": found[0].threshold} if found else {}
        return {**none, **closest, "text": saturated(saturation, said["read"], missing)}
    if not found:
        words = (f"no rule could judge what was read ({'; '.join(said['read'])})" if said["read"] else
                 "no resource's use was read" if r.anything() else "nothing server-side was read")
        return {**none, "text": words + (f"; not read: {'; '.join(missing)}" if missing else "")}
    closest = found[0]
    return {**none, "value": closest.value, "threshold": closest.threshold, "evidence": [closest.text],
            "text": f"{NO_SIGN}: the closest is {closest.resource} at {closest.score * 100:.0f} % of its threshold"}


def saturated(seen: str, read: list[str], missing: list[str]) -> str:
    """The client saw saturation and no resource read is over its threshold: said as such, with what was and was not read."""
    text = f"saturation seen {seen}; "
    text += (f"none of the resources read ({'; '.join(read)}) is over its threshold" if read
             else "no resource's use was read")
    return text + (f"; not read: {'; '.join(missing)}" if missing else "")
