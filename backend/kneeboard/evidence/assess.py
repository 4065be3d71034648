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
    difference = 100.0 * (server - sent) / sent
    missing = sent - server
    where = [{"what": d.what, "rate": d.value, "share_pct": 100.0 * d.value / missing if missing > 0 else None}
             for d in sorted(r.drops, key=lambda d: d.value, reverse=True) if d.value > 0]
    agree = abs(difference) <= AGREE_PCT
    verb = "sent" if number(point.get("sent")) is not None else "had answered"  # a tool without a sent count (wrk)
    said = f"the server counted {server:,.0f}/s of the {sent:,.0f}/s the client {verb} ({difference:+.1f} %)"
    if agree:
        text = f"{said}: they agree"
    elif difference > 0:
        text = f"{said}: more than was sent (other clients, or retries)"
    elif where:
        text = f"{said}; " + "; ".join(f"{w['what']}: {w['rate']:,.0f}/s{_share(w['share_pct'])}" for w in where)
    elif any(d.what for d in r.drops):
        text = f"{said}; no drop counter read here explains it (" + ", ".join(d.what for d in r.drops) + " read 0)"
    else:
        text = f"{said}; no exporter reads the kernel's drop counters (scrape a node_exporter on the server to see where they went)"
    return {"server_rate": server, **rates, "difference_pct": difference, "agree": agree, "source": r.requests.source,
            "where": where, "text": text}


def _share(pct: float | None) -> str:
    """A drop's share of the difference in words; past 100 % the counts' windows differ, and it accounts for all of it."""
    if pct is None:
        return ""
    return " (all of the difference)" if pct >= 95 else f" ({pct:.0f} % of the difference)"


def cost(point: Point, r: Readings, work: tuple[str, float]) -> dict | None:
    """The server process's CPU-seconds per unit of work (work: its words and size, ("1,000 queries", 1000)), from the
    process's own counter, over the requests the server counted (else those the client had answered)."""
    label, size = work
    rate = r.requests.value if r.requests is not None else number(point.get("achieved_rate"))
    if r.process_cpu is None or not rate:
        return None
    cpu_s = r.process_cpu.value / 100.0
    over = "the server's count" if r.requests is not None else "the client's answered"
    return {"value": cpu_s / rate * size, "unit": f"CPU-s per {label}", "cpu_pct": r.process_cpu.value,
            "source": f"{r.process_cpu.source}, over {over}"}


def figures(point: Point, work: tuple[str, float]) -> dict[str, float | None]:
    """The point-level metrics the server evidence adds (server_rate, server_cost) for comparisons, trends, exports."""
    r = read(point.get("monitors"))
    found = cost(point, r, work)
    return {"server_rate": r.requests.value if r.requests else None, "server_cost": found["value"] if found else None}


def point_evidence(point: Point, work: tuple[str, float]) -> dict:
    """One point's evidence: agreement, cost and bottleneck (each None / "none" where its data are missing)."""
    r = read(point.get("monitors"))
    return {"point_id": point.get("id"), "phase": point.get("phase"), "offered_rate": number(point.get("offered_rate")),
            "concurrency": point.get("concurrency"), "repeat": point.get("repeat"), "variant": point.get("variant"),
            "agreement": agreement(point, r), "cost": cost(point, r, work),
            "bottleneck": bottleneck.name(r, client_rates(point)["sent_rate"]), "exporters": r.exporters}


def assess(points: list[Point], *, work: tuple[str, float], knee_rate: float | None = None,
           host_shared: str | None = None) -> dict | None:
    """A campaign's (one variant's) evidence: every completed point's (a generator-limited one too, marked: what the
    server counted is still set against what was sent), and the bottleneck the conclusion leads with, judged on the
    points the generator sent, at the knee's load, else at the highest load the server was judged on, with the lowest load from which
    the same resource was over its threshold; "cost": the mean of the points' costs (what a comparison's and a trend's
    server_cost reads). None when no point was watched by any monitor."""
    watched = [p for p in points if p.get("monitors") and p.get("status") == PointStatus.COMPLETED]
    if not watched:
        return None
    per_point = [{**point_evidence(p, work), "generator_limited": bool(p.get("generator_limited"))}
                 for p in sorted(watched, key=_load_order)]
    notes = []
    if host_shared:
        notes.append(f"host CPU includes the load generator's: it shares this host ({host_shared}); the server process's "
                     "own CPU (its exporter's process pack) does not")
    costs = [e["cost"]["value"] for e in per_point if e["cost"]]
    mean_cost = {"value": sum(costs) / len(costs), "unit": f"CPU-s per {work[0]}", "points": len(costs)} if costs else None
    judged = [e for e in per_point if not e["generator_limited"]
              and (e["bottleneck"]["kind"] != "none" or e["bottleneck"]["value"] is not None)]
    if not judged:
        return {"bottleneck": None, "at": None, "points": per_point, "notes": notes, "cost": mean_cost,
                "missing": per_point[-1]["bottleneck"]["text"]}
    at = _at(judged, knee_rate)
    found = dict(at["bottleneck"])
    if found["resource"]:
        first = next(e for e in judged if e["bottleneck"]["resource"] == found["resource"])
        if first["offered_rate"] is not None and first["offered_rate"] < (at["offered_rate"] or 0):
            found["text"] = f"from {first['offered_rate']:,.0f} offered, {found['text']}"
    where = "at the knee" if knee_rate is not None and at["offered_rate"] == knee_rate else "at the highest load judged"
    return {"bottleneck": found, "at": {"point_id": at["point_id"], "offered_rate": at["offered_rate"], "where": where},
            "points": per_point, "notes": notes, "cost": mean_cost, "missing": None}


def _load_order(point: Point) -> tuple[float, int]:
    """Points by load (offered, else achieved: closed-loop tools offer none), then repetition."""
    load = number(point.get("offered_rate"))
    return (load if load is not None else number(point.get("achieved_rate")) or 0.0, point.get("repeat") or 0)


def _at(judged: list[dict[str, Any]], knee_rate: float | None) -> dict:
    """The point the campaign's bottleneck is read at: the knee's load (its last repetition), else the highest."""
    if knee_rate is not None:
        at_knee = [e for e in judged if e["offered_rate"] == knee_rate]
        if at_knee:
            return at_knee[-1]
    return judged[-1]
