"""What an impairment of the link cost, campaign against campaign (issue 39): the TCP segments retransmitted per unit of
the tool's work and the share of the link's packets dropped, one value per repetition, from the points'
extra["impairment"] (lab/impair.py `beside_point`), tested like the failover figures (failover_verdict.figure_verdict with
of="repetitions": Welch's t-test, TOST against the practical margin, verdicts.tested_verdict), lower being better. Pure.

Retransmissions are counted per unit of work (per 1,000 requests for kbhttp; the tool's `work_unit`), not per second.
A loss of a fixed share of the packets costs each request about the same packets whatever the rate: at 1 % loss in the
lab (kbhttp, 3 s points, 500 to 4,000 req/s) it was 24–52 retransmissions per 1,000 requests at every rate, while per
second it grew from 12–17 to 147–158. Per second, a sweep's points could not be summed into one figure, nor campaigns
loaded at different rates be compared; per request, a reader compares what the link costs each request.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .points import finite

# A comparison's link rows (compare/service.py): name, label, unit ({work}: the tool's work unit); lower is better.
COMPARED = (
    ("link_retransmissions", "Link: TCP retransmissions per {work} (mean of repetitions)", "retransmissions per {work}"),
    ("link_dropped_pct", "Link: share of its packets dropped (mean of repetitions)", "%"),
)


def repetition_figures(points: Iterable[dict[str, Any]], work_size: float) -> dict[str, list[float]]:
    """Per COMPARED figure, its value in each repetition that has it, over the repetition's points ({"repeat",
    "achieved_rate", "duration_s", "impairment": a point's extra["impairment"]}): the TCP segments retransmitted on
    both ends of the link per `work_size` units of work done (achieved rate × duration), and the packets the link
    dropped in % of those that arrived (only where an impairment was counted: a clean point counts no packets). A point
    whose record has an error, or lacks a side's count, adds nothing to that figure."""
    sums: dict[Any, dict[str, float]] = {}
    for point in points:
        link = point.get("impairment") or {}
        if not link or link.get("error"):
            continue
        found = sums.setdefault(point.get("repeat"), {"retransmitted": 0.0, "work": 0.0, "arrived": 0.0, "dropped": 0.0})
        sent_again = list((link.get("tcp_retransmissions") or {}).values())
        work = (finite(point.get("achieved_rate")) or 0.0) * (finite(point.get("duration_s")) or 0.0) / work_size
        if sent_again and None not in sent_again and work > 0:
            found["retransmitted"] += sum(sent_again)
            found["work"] += work
        packets = link.get("packets") or {}
        if packets.get("arrived"):
            found["arrived"] += packets["arrived"]
            found["dropped"] += packets.get("dropped") or 0
    return {"link_retransmissions": [s["retransmitted"] / s["work"] for s in sums.values() if s["work"]],
            "link_dropped_pct": [100.0 * s["dropped"] / s["arrived"] for s in sums.values() if s["arrived"]]}  # fmt: skip

