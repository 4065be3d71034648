"""Was the offered load sent? The generator judged before the server (pure: no I/O).

A point offers a rate for a duration: it asks the load tool for `asked` operations. When the tool sent
noticeably fewer (`SENT_MIN_PCT`; a lost query was sent, so loss counts as sent), the server was never
offered that load and the point says nothing of the server there: it is *generator-limited*, and the
analysis leaves it out of knee, ceiling, capacity, USL and zones (:func:`server_judged`).

Why it was not sent, in this order:

- ``outstanding``: the tool keeps at most `cap` operations in flight (dnsperf ``-q``, one request per kbhttp
  connection). By Little's law the asked rate keeps ``rate × latency`` in flight (plus each lost one for its
  timeout); a cap under `CAP_ROOM` times that can hold the rate down (the tool reuses a place only some time
  after its answer, and sends in bursts when behind). When lost operations held most of the cap, it was the
  server that lost them: the shortfall is the server's (``loss``), and the point is judged as usual.
- ``cpu``: the generator's host was at least `BUSY_MIN_PCT` busy (an mpstat monitor ran beside the point).
- ``sockets``: the tool reported sends its own sockets refused (no buffer space, no free port…).
- ``unknown``: none of these explains it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kneeboard.states import PointStatus

SENT_MIN_PCT = 97.0  # below this share of the asked operations sent, the load was not offered
# A cap under this many times what the asked rate keeps in flight can hold it down: dnsperf reuses a slot only once its
# receiving thread hands it back (43-690 µs after the answer on this 2-CPU host, beside a 21-117 µs latency) and sends
# in bursts when behind. Measured: -q 1, 2, 4, 8 sent 1.4-22k of 100k q/s; -q 16 (1.4× the need) sent it all.
CAP_ROOM = 4.0
# ...and the slowest hand-back measured there: when the cap's places each took no longer than the answer plus this to
# come round again (the cap over the rate sent), the cap was full all the time and it held the rate down, whatever Little's
# law says of the mean latency (beside a CPU hog dnsperf read 0.01 ms answers and sent 3,400 of 40,000 q/s with -q 2)
HAND_BACK_MAX_MS = 0.69
BUSY_MIN_PCT = 90.0  # the generator host's mean CPU busy (all CPUs) from which the CPU explains the shortfall
LOSS_SHARE = 0.5  # lost operations holding at least this share of the cap: the server's loss, not the generator's cap


@dataclass(frozen=True)
class Sending:
    """What a load tool says of its own sending in one point (an adapter's `sending` hook fills it in)."""

    tool: str
    unit: str  # what one operation is: "queries", "requests"
    rate_unit: str  # the unit of a rate: "qps", "req/s"
    offered_rate: float
    duration_s: float
    asked: float  # operations the point asked the tool to send
    sent: float  # operations the tool sent (its own count; lost ones were sent)
    lost: float = 0.0  # sent and never answered: each held a place in flight until its timeout
    latency_ms: float | None = None  # the mean time an answered operation was in flight
    timeout_s: float | None = None
    cap: int | None = None  # the most operations the tool keeps in flight; None: no such cap
    cap_param: str | None = None  # the plan's parameter that sets the cap ("max_outstanding", "concurrency")
    cap_label: str = ""  # what the cap counts: "queries outstanding", "connections (one request in flight each)"
    cap_max: int | None = None  # the parameter's own upper bound
    cap_shares: int = 1  # the parameter sets the cap of each of this many agents (a fanned point): `cap` is their sum
    socket_failures: int = 0  # sends the generator's own sockets or ports refused
    socket_detail: str | None = None  # the first such failure as the tool said it


def judge(sending: Sending, cpu_busy_pct: float | None = None) -> dict[str, Any]:
    """Whether the point's offered load was sent and, when it was not, why and what would lift it.

    Returns {"asked", "sent", "sent_pct", "limited", "cause", "causes", "detail", "suggestion", "cap",
    "cap_rate", "cpu_busy_pct"}: `cause` is the first of `causes` ("outstanding", "cpu", "sockets",
    "unknown"; "loss" when the server's losses filled the cap, which leaves the point judged as usual),
    None with the cap rate, detail and suggestion when the load was sent.
    """
    s = sending
    sent_pct = 100.0 * s.sent / s.asked if s.asked > 0 else 100.0
    cap_rate = s.cap / (s.latency_ms / 1000.0) if s.cap and s.latency_ms else None
    verdict: dict[str, Any] = {"asked": round(s.asked), "sent": round(s.sent), "sent_pct": round(sent_pct, 1), "limited": False,
                               "cause": None, "causes": [], "detail": None, "suggestion": None, "cap": s.cap,
                               "cap_rate": round(cap_rate, 1) if cap_rate else None, "cpu_busy_pct": cpu_busy_pct}  # fmt: skip
    if sent_pct >= SENT_MIN_PCT:
        return verdict
    reasons = _reasons(s, cpu_busy_pct, cap_rate)
    if reasons and reasons[0][0] == "loss":
        cause, detail, suggestion = reasons[0]
        return {**verdict, "cause": cause, "causes": [cause], "detail": detail, "suggestion": suggestion}
    if not reasons:
        cpu = "no mpstat monitor ran" if cpu_busy_pct is None else f"the host was {cpu_busy_pct:.0f} % busy"
        raise_cap = f"raise {s.cap_param} (a busy host hands places back late), " if s.cap else ""
        reasons = [("unknown", f"{s.tool} sent {_share(s)}; neither its cap by Little's law, the host's CPU ({cpu}) nor its sockets explain it",
                    f"{raise_cap}watch the generator host (an mpstat monitor), or split the load over another agent")]
    return {**verdict, "limited": True, "cause": reasons[0][0], "causes": [r[0] for r in reasons],
            "detail": "; ".join(r[1] for r in reasons), "suggestion": "; or ".join(r[2] for r in reasons)}


def _reasons(s: Sending, cpu_busy_pct: float | None, cap_rate: float | None) -> list[tuple[str, str, str]]:
    """(cause, detail, suggestion) for each cause that explains the shortfall, the cap's first."""
    reasons = []
    answers_need = s.offered_rate * (s.latency_ms or 0.0) / 1000.0  # in flight at the asked rate (Little's law)
    lost_held = s.lost / s.duration_s * (s.timeout_s or 0.0) if s.duration_s else 0.0  # each lost one held a place until its timeout
    if s.cap and lost_held >= LOSS_SHARE * s.cap:
        return [("loss", f"{s.lost:,.0f} {s.unit} the server never answered held {s.tool}'s {s.cap:,} {s.cap_label} until their "
                 f"{s.timeout_s:g} s timeout; {s.tool} sent {_share(s)}: the shortfall is the server's loss, not the generator's",
                 "none for the generator: the server lost the load (it is past its limit)")]
    sent_rate = s.sent / s.duration_s if s.duration_s else 0.0
    cycle_ms = 1000.0 * s.cap / sent_rate if s.cap and sent_rate > 0 else None  # how long each place took to come round
    what = f"{s.tool} keeps at most {s.cap:,} {s.cap_label}" if s.cap else ""
    if s.cap and s.cap < CAP_ROOM * (answers_need + lost_held):
        limit = f"at {s.latency_ms:.3g} ms that caps the rate at {_rate(cap_rate, s.rate_unit)} (Little's law)" if cap_rate else "its lost ones held them"
        need = f"the asked {_rate(s.offered_rate, s.rate_unit)} needs {answers_need + lost_held:,.1f} in flight"
        reasons.append(("outstanding", f"{what}; {limit}; {need}", _raise_cap(s, CAP_ROOM * (answers_need + lost_held))))
    elif cycle_ms is not None and cycle_ms <= (s.latency_ms or 0.0) + HAND_BACK_MAX_MS:
        full = (f"it sent {_rate(sent_rate, s.rate_unit)}, each place coming round every {cycle_ms:.2g} ms: its answer "
                f"({s.latency_ms or 0:.2g} ms) and the time {s.tool} took to use the place again (up to {HAND_BACK_MAX_MS:g} ms "
                "measured on a quiet host; longer on a busy one): the cap was full all the time")
        reasons.append(("outstanding", f"{what}; {full}", _raise_cap(s, s.offered_rate * cycle_ms / 1000.0)))
    if cpu_busy_pct is not None and cpu_busy_pct >= BUSY_MIN_PCT:
        reasons.append(("cpu", f"the generator's host was {cpu_busy_pct:.0f} % busy (mpstat): {s.tool} could not send faster",
                        "run the load from another agent, or fan the point out over more agents"))
    if s.socket_failures:
        first = f" (first: {s.socket_detail})" if s.socket_detail else ""
        reasons.append(("sockets", f"{s.tool} reported {s.socket_failures:,} sends its sockets refused{first}",
                        "add clients (sockets) or another agent, or raise the host's socket buffers and port range"))
    return reasons


def _raise_cap(s: Sending, wanted_total: float) -> str:
    """Raise the cap to what the asked rate needs with room (per agent of a fanned point); more agents past its bound."""
    wanted = _round_up(wanted_total / s.cap_shares)
    if s.cap_max is not None and wanted > s.cap_max:
        return f"{s.cap_param} is at most {s.cap_max:,}: split the load over more agents"
    return f"raise {s.cap_param} to ≥ {wanted:,}"


def _share(s: Sending) -> str:
    return f"{s.sent:,.0f} of the {s.asked:,.0f} {s.unit} asked for ({100.0 * s.sent / s.asked:.1f} %)"


def _round_up(x: float) -> int:
    """Up to two significant figures: 204 → 210, 1,234 → 1,300."""
    if x <= 10:
        return max(1, math.ceil(x))
    step = 10 ** (int(math.log10(x)) - 1)
    return int(math.ceil(x / step) * step)


def _rate(x: float, unit: str) -> str:
    """A rate to three significant figures: 29,411.8 → "29,400 qps"."""
    digits = max(0, int(math.log10(x)) - 2) if x >= 1 else 0
    return f"{round(x, -digits):,.0f} {unit}"


def limited(point: dict[str, Any]) -> bool:
    """Whether an analysis point (campaigns/analysis.py's point_dict) was generator-limited."""
    return bool(point.get("generator_limited"))


def server_judged(points: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The points the server can be judged on (generator-limited ones left out), and those left out as
    {"offered_rate", "concurrency", "phase", "repeat", "sent_pct", "cause", "detail", "suggestion"}, by load."""
    kept, left_out = [], []
    for point in points:
        if not limited(point) or point.get("status") != PointStatus.COMPLETED:
            kept.append(point)
            continue
        verdict = point.get("generator") or {}
        left_out.append({"offered_rate": point.get("offered_rate"), "concurrency": point.get("concurrency"),
                         "phase": point.get("phase"), "repeat": point.get("repeat"), "sent_pct": verdict.get("sent_pct"),
                         "cause": verdict.get("cause"), "detail": verdict.get("detail"), "suggestion": verdict.get("suggestion")})  # fmt: skip
    left_out.sort(key=lambda p: (p["offered_rate"] or 0.0, p["repeat"] or 0))
    return kept, left_out


def warning(verdict: dict[str, Any]) -> str:
    """The point's warning for a generator-limited verdict: what was sent, why, and the change that would lift it."""
    return (f"generator-limited: sent {verdict['sent']:,} of the {verdict['asked']:,} asked for ({verdict['sent_pct']:g} %), "
            f"so the server was not offered this load ({verdict['cause']}: {verdict['detail']}); suggestion: {verdict['suggestion']}")
