"""Server evidence per point and for a campaign: client and server agree (or where they part), the server's cost per
unit of work, and the bottleneck named (bottleneck.py). Pure.

A point dict (kneeboard.analysis.points) carries its monitors' summaries under "monitors" and the client's figures:
achieved_rate, and for tools that count them sent, completed and lost.
"""

from __future__ import annotations

from typing import Any

from kneeboard.states import PointStatus

from . import bottleneck
from .readings import Readings, number, read

Point = dict[str, Any]

AGREE_PCT = 2.0  # the server's count and the client's agree within this
MIN_EFFICIENCY = 0.95  # the client saw saturation where it achieved less than this share of the offered load…
FALL_PCT = 5.0  # …or this much less than a lower load achieved…
LATENCY_FAR = 10.0  # …or a mean latency this many times the lowest load's


def client_rates(point: Point) -> dict[str, float | None]:
    """What the client sent, had answered and lost, per second (sent and lost from its counts, at the achieved rate)."""
    answered = number(point.get("achieved_rate"))
    completed, sent, lost = (number(point.get(k)) for k in ("completed", "sent", "lost"))
    per = answered / completed if answered is not None and completed else None
    return {"answered_rate": answered,
            "sent_rate": sent * per if per is not None and sent is not None else answered,
            "lost_rate": lost * per if per is not None and lost is not None else None}


def agreement(point: Point, r: Readings) -> dict | None:
    """The server's request count beside the client's; past AGREE_PCT, where the difference went (the packs' drop
    counters) or that nothing read here explains it. None when no exporter counts requests."""
    if r.requests is None:
        return None
    rates = client_rates(point)
    sent, server = rates["sent_rate"], r.requests.value
    if not sent:
        return None
    window = r.requests.window
    count, sent_count, load_s = r.requests.count, number(point.get("sent")), (window or {}).get("load_s")
    counts = count is not None and bool(sent_count) and bool(load_s)
    if counts:  # the same queries counted on both sides: their rates are over different windows (dnsperf's run time
        # runs to its last answer, ~4.1 s for a 4 s load on a busy host, and its rates read that much lower)
        difference, missing = 100.0 * (count - sent_count) / sent_count, (sent_count - count) / load_s
    else:
        difference, missing = 100.0 * (server - sent) / sent, sent - server
    where = [{"what": d.what, "rate": d.value, "share_pct": 100.0 * d.value / missing if missing > 0 else None}
             for d in sorted(r.drops, key=lambda d: d.value, reverse=True) if d.value > 0]
    agree = abs(difference) <= AGREE_PCT
    verb = "sent" if number(point.get("sent")) is not None else "had answered"  # a tool without a sent count (wrk)
    said = (f"the server counted {count:,.0f} of the {sent_count:,.0f} queries the client sent ({difference:+.1f} %)"
            if counts else
            f"the server counted {server:,.0f}/s of the {sent:,.0f}/s the client {verb} ({difference:+.1f} %)")
    if agree:
        text = f"{said}: they agree"
    elif difference > 0:
        text = f"{said}: more than was sent (other clients, or retries)"
    elif where:
        text = f"{said}; " + "; ".join(f"{w['what']}: {w['rate']:,.0f}/s{_share(w['share_pct'])}" for w in where)
    elif any(d.what for d in r.drops):
        text = f"{said}; no drop counter read here explains it (" + ", ".join(d.what for d in r.drops) + " read 0)"
    else:
        text = f"{said}; nothing read here says where the difference went (no drop counter was read)"
    if window and count is not None:
        text += (f" [the server's counter read right before the load and after it, once it stopped rising ({window['after_t'] - window['before_t']:.2f} s "
                 f"apart): {count:,.0f} counted over the load's {window['load_s']:g} s]")
    return {"server_rate": server, **rates, "difference_pct": difference, "agree": agree, "source": r.requests.source,
            "where": where, "text": text, "count": r.requests.count, "window": window}


def _share(pct: float | None) -> str:
    """A drop's share of the difference in words; past 100 % the counts' windows differ, and it accounts for all of it."""
    if pct is None:
        return ""
    return " (all of the difference)" if pct >= 95 else f" ({pct:.0f} % of the difference)"


def cost(point: Point, r: Readings, work: tuple[str, float]) -> dict | None:
    """The server process's CPU-seconds per unit of work (work: its words and size, ("1,000 queries", 1000)), from the
    process's own counter, over the requests the server counted (else those the client had answered)."""
    label, size = work
    if r.process_cpu is None:
        return None
    whole = {"value": None, "unit": f"CPU-s per {label}", "cpu_pct": r.process_cpu.value, "usable_cpus": r.usable_cpus}
    completed = number(point.get("completed"))
    if r.process_cpu.count is not None and r.requests is not None and r.requests.count:
        return {**whole, "value": r.process_cpu.count / r.requests.count * size, "cpu_s": r.process_cpu.count,
                "source": f"{r.process_cpu.source}, over the requests the server counted (both over the whole load)"}
    if r.process_cpu.count is not None and completed:
        return {**whole, "value": r.process_cpu.count / completed * size, "cpu_s": r.process_cpu.count,
                "source": f"{r.process_cpu.source}, over the requests the client had answered (both over the whole load)"}
    rate = r.requests.value if r.requests is not None else number(point.get("achieved_rate"))
    if not rate:
        return None
    over = "the server's count" if r.requests is not None else "the client's answered"
    return {**whole, "value": r.process_cpu.value / 100.0 / rate * size, "source": f"{r.process_cpu.source}, over {over}"}


def figures(point: Point, work: tuple[str, float]) -> dict[str, float | None]:
    """The point-level metrics the server evidence adds (server_rate, server_cost) for comparisons, trends, exports."""
    r = read(point.get("monitors"))
    found = cost(point, r, work)
    return {"server_rate": r.requests.value if r.requests else None, "server_cost": found["value"] if found else None}


def host_split(point: Point) -> dict | None:
    """The host's CPUs over the point split between the server process (the process monitor's /proc reading), the load
    generator with Kneeboard's own monitors (the worker and its children: harness_cpu), the rest, and idle, each in
    CPUs (CPU-seconds over the window); None unless the process monitor read the host beside the server."""
    proc = (point.get("monitors") or {}).get("process") or {}
    server, busy, total, window = (number(proc.get(k)) for k in ("cpu_s", "host_busy_cpu_s", "host_cpu_s", "window_s"))
    harness = point.get("harness_cpu") or {}
    generator = sum(v for v in (number(harness.get("children_s")), number(harness.get("worker_s"))) if v is not None)
    if None in (server, busy, total) or not window or not proc.get("pids"):
        return None
    split = {"server": server / window, "generator": generator / window if harness else None,
             "other": max(0.0, busy - server - generator) / window, "idle": max(0.0, total - busy) / window,
             "cpus": proc.get("host_cpus")}
    parts = [f"server {split['server']:.2f}", *([f"load generator and monitors {split['generator']:.2f}"] if harness else []),
             f"other {split['other']:.2f}", f"idle {split['idle']:.2f}"]
    split["text"] = f"the host's {split['cpus']} CPUs over the point: " + ", ".join(parts) + " (CPUs busy)"
    return split


def sources(r: Readings) -> list[str]:
    """Where one point's readings came from (the exporters, the node, mpstat and process monitors)."""
    found = [f"exporter {name}" for name in r.exporters]
    if r.cpus_source and not r.cpus_source.startswith("exporter"):
        found.append(r.cpus_source)
    if r.host is not None:
        found.append(r.host.source)
    if r.process_cpu is not None and not r.process_cpu.source.startswith("exporter"):
        found.append(r.process_cpu.source)
    return found


def point_evidence(point: Point, work: tuple[str, float], *, shared: str | None = None,
                   saturation: str | None = None) -> dict:
    """One point's evidence: agreement, cost and bottleneck (each None / "none" where its data are missing); `shared`
    where the load generator shares the server's host, `saturation` the signs of saturation the client saw at it."""
    r = read(point.get("monitors"))
    return {"point_id": point.get("id"), "phase": point.get("phase"), "offered_rate": number(point.get("offered_rate")),
            "concurrency": point.get("concurrency"), "repeat": point.get("repeat"), "variant": point.get("variant"),
            "agreement": agreement(point, r), "cost": cost(point, r, work),
            "bottleneck": bottleneck.name(r, client_rates(point)["sent_rate"], shared=shared, saturation=saturation),
            "exporters": r.exporters, "sources": sources(r), "host_split": host_split(point)}


def client_saturation(points: list[Point], min_efficiency: float = MIN_EFFICIENCY) -> list[str | None]:
    """For each point (in the order given), the signs of saturation the client saw at it, in words, else None: it
    achieved under `min_efficiency` of its offered load, less than a lower load achieved (by FALL_PCT), or a mean latency
    LATENCY_FAR times the lowest load's (the median of that load's points)."""
    loads = [_load(p) for p in points]
    lowest = [number(p.get("latency_avg_ms")) for p, load in zip(points, loads) if load == min(loads, default=None)]
    baseline = _median([v for v in lowest if v is not None and v > 0])
    signs: list[str | None] = []
    for point, load in zip(points, loads):
        achieved, offered = number(point.get("achieved_rate")), number(point.get("offered_rate"))
        latency = number(point.get("latency_avg_ms"))
        said = []
        if achieved is not None and offered:
            if achieved / offered < min_efficiency:
                said.append(f"{achieved:,.0f}/s achieved of {offered:,.0f}/s offered ({100 * achieved / offered:.0f} %)")
        below = [number(p.get("achieved_rate")) or 0.0 for p, other in zip(points, loads) if other < load]
        if achieved is not None and below and achieved < (1 - FALL_PCT / 100) * max(below):
            said.append(f"{achieved:,.0f}/s achieved, less than the {max(below):,.0f}/s of a lower load")
        if latency is not None and baseline and latency >= LATENCY_FAR * baseline:
            said.append(f"mean latency {latency:.2f} ms, {latency / baseline:.0f}× the lowest load's {baseline:.2f} ms")
        signs.append("; ".join(said) or None)
    return signs


def _load(point: Point) -> float:
    """A point's load: the offered rate, else its concurrency, else what it achieved (closed-loop tools offer none)."""
    for key in ("offered_rate", "concurrency", "achieved_rate"):
        if (value := number(point.get(key))) is not None:
            return value
    return 0.0


def _median(values: list[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def sustained_from(flags: dict[float, bool]) -> float | None:
    """The lowest load from which every higher load is flagged (None when the highest is not)."""
    start = None
    for load in sorted(flags, reverse=True):
        if not flags[load]:
            break
        start = load
    return start


def _by_load(entries: list[dict]) -> dict[float, list[dict]]:
    groups: dict[float, list[dict]] = {}
    for e in entries:
        groups.setdefault(e["load"], []).append(e)
    return groups


def _flags(groups: dict[float, list[dict]], test) -> dict[float, bool]:  # noqa: ANN001 - a predicate on an entry
    """Per load, whether at least half of its points pass `test` (repetitions outvote a single noisy one)."""
    return {load: 2 * sum(1 for e in group if test(e)) >= len(group) for load, group in groups.items()}


def assess(points: list[Point], *, work: tuple[str, float], knee_rate: float | None = None,
           host_shared: str | None = None, min_efficiency: float = MIN_EFFICIENCY, unit: str | None = None) -> dict | None:
    """A campaign's (one variant's) evidence: every completed point's (a generator-limited one too, marked: what the
    server counted is still set against what was sent), and the bottleneck the conclusion leads with, judged on the
    points the generator sent: the resource over its threshold at the knee's load, else the one over it at every load from
    the lowest such load up (at least half of each load's repetitions); else, when the client saw saturation, that
    saturation with what was read and what was not; else the resource closest to its threshold. "cost": the mean of the
    points' costs (what a comparison's and a trend's server_cost reads). None when no point was watched by any monitor."""
    watched = sorted((p for p in points if p.get("monitors") and p.get("status") == PointStatus.COMPLETED), key=_load_order)
    if not watched:
        return None
    signs = client_saturation(watched, min_efficiency)
    per_point = [{**point_evidence(p, work, shared=host_shared, saturation=f"at this load ({seen})" if seen else None),
                  "generator_limited": bool(p.get("generator_limited"))} for p, seen in zip(watched, signs)]
    notes = []
    if host_shared:
        notes.append(f"host CPU includes the load generator's: it shares this host ({host_shared}); the server process's "
                     "own CPU (the process monitor's, else its exporter's process pack) does not")
    costs = [e["cost"]["value"] for e in per_point if e["cost"]]
    mean_cost = {"value": sum(costs) / len(costs), "unit": f"CPU-s per {work[0]}", "points": len(costs)} if costs else None
    read_from = sorted({s for e in per_point for s in e["sources"]})
    entries = [{"e": e, "load": _load(p), "seen": seen} for e, p, seen in zip(per_point, watched, signs)
               if not e["generator_limited"]]
    found = _named(entries, knee_rate) or _saturation(entries, unit) or _bent(entries, knee_rate, unit) or _closest(entries, knee_rate)
    if found is None:
        missing = per_point[-1]["bottleneck"]["text"] if read_from else \
            "nothing server-side was read: no exporter, node, mpstat or process monitor gave a figure for these points"
        return {"bottleneck": None, "at": None, "points": per_point, "notes": notes, "cost": mean_cost,
                "missing": missing, "read": read_from}
    split = next((e["host_split"] for e in per_point if found["at"] and e["point_id"] == found["at"]["point_id"]), None)
    if split and host_shared and found.get("bottleneck"):
        found["bottleneck"] = {**found["bottleneck"], "text": f"{found['bottleneck']['text']}; {split['text']}"}
    return {**found, "points": per_point, "notes": notes, "cost": mean_cost, "missing": None, "read": read_from}


def _at(entry: dict, where: str) -> dict:
    e = entry["e"]
    return {"point_id": e["point_id"], "offered_rate": e["offered_rate"], "where": where}


def _named(entries: list[dict], knee_rate: float | None) -> dict | None:
    """The resource over its threshold at the knee's load (at least half its points), else the one over it at every load
    from the lowest such load up, the earliest first; said from the lowest load it holds from."""
    groups = _by_load(entries)
    resources = {e["e"]["bottleneck"]["resource"] for e in entries} - {None}
    held = {r: _flags(groups, lambda e, r=r: e["e"]["bottleneck"]["resource"] == r) for r in resources}
    chosen, where = None, "at the highest load judged"
    if knee_rate is not None and knee_rate in groups:
        chosen = next((r for r in sorted(resources, key=_specific) if held[r][knee_rate]), None)
        where = "at the knee"
    if chosen is None:
        lasting = {r: start for r in resources if (start := sustained_from(held[r])) is not None}
        if not lasting:
            return None
        chosen = min(lasting, key=lambda r: (_specific(r)[0], lasting[r], r))
        where = "at the highest load judged"
    naming = [e for e in entries if e["e"]["bottleneck"]["resource"] == chosen]
    at = [e for e in naming if e["load"] == knee_rate][-1] if where == "at the knee" else naming[-1]
    start = sustained_from(held[chosen]) or naming[0]["load"]
    found = dict(at["e"]["bottleneck"])
    if start < at["load"]:
        found["text"] = f"from {start:,.0f} offered, {found['text']}" if at["e"]["offered_rate"] is not None else \
            f"from a load of {start:,.0f}, {found['text']}"
    return {"bottleneck": found, "at": _at(at, where)}


def _specific(resource: str) -> tuple[bool, str]:
    """Resources in the order a campaign names them: the server process's own CPU (it says whose work fills the CPUs)
    before the others."""
    return resource != bottleneck.PROCESS, resource


def _saturation(entries: list[dict], unit: str | None) -> dict | None:
    """The client saw saturation (at least half the points of a load, from that load up, else at the lowest such load)
    and no resource read is over its threshold there: said as such, with the figures read at that load's last point."""
    groups = _by_load(entries)
    flags = _flags(groups, lambda e: bool(e["seen"]))
    start = sustained_from(flags) or min((load for load, flagged in flags.items() if flagged), default=None)
    if start is None:
        return None
    at = [e for e in groups[start] if e["seen"]][-1]
    return _unexplained(at, f"at {start:,.0f}{_per(at, unit)} ({at['seen']})", "where the client first saw saturation")


def _per(entry: dict, unit: str | None) -> str:
    """The load's unit after a figure (" qps"), " offered" when the analysis gave none."""
    return f" {unit}" if unit else (" offered" if entry["e"]["offered_rate"] is not None else "")


def _unexplained(at: dict, seen: str, where: str) -> dict:
    """Saturation seen (`seen`, in words) with no resource read over its threshold: said so, with what was and was not
    read at the point `at`."""
    point = at["e"]["bottleneck"]
    read, missing = point.get("read") or [], point.get("not_read") or []
    found = {"resource": None, "kind": "none", "value": None, "threshold": None, "evidence": [],
             "text": bottleneck.saturated(seen, read, missing), "read": read, "not_read": missing}
    return {"bottleneck": found, "at": _at(at, where)}


def _bent(entries: list[dict], knee_rate: float | None, unit: str | None) -> dict | None:
    """The curve bent (the analysis found a knee) though no load's points crossed the client's own signs of saturation
    (noise around them): said like saturation seen, at the first load judged at or past the knee, never "nothing near"."""
    past = [e for e in entries if knee_rate is not None and e["load"] >= knee_rate]
    if not past:
        return None
    return _unexplained(past[0], f"at the knee, {knee_rate:,.0f}{_per(past[0], unit)} (where the curve bends)", "at the knee")


def _closest(entries: list[dict], knee_rate: float | None) -> dict | None:
    """No saturation seen and nothing over its threshold: the closest resource, at the knee's load, else the highest."""
    judged = [e for e in entries if e["e"]["bottleneck"]["value"] is not None]
    if not judged:
        return None
    at_knee = [e for e in judged if knee_rate is not None and e["load"] == knee_rate]
    at = (at_knee or judged)[-1]
    return {"bottleneck": dict(at["e"]["bottleneck"]), "at": _at(at, "at the knee" if at_knee else "at the highest load judged")}


def _load_order(point: Point) -> tuple[float, int]:
    """Points by load (_load), then repetition."""
    return (_load(point), point.get("repeat") or 0)
