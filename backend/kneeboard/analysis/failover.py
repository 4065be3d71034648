"""What a point's outcomes per bucket say about a failure during it (issue 39): the error window, the longest gap
between successes, the failed requests by class, the detection and recovery times, where the traffic went before,
during and after, and how well each connection stayed on one backend. Pure: the buckets come from kbhttp's outcome
file as stored on the point (tools/kbhttp/outcomes.py, extra["outcomes"]); times are seconds since the epoch.

Every time is a bucket's edge: a figure is exact to one bucket width (10 ms unless the point was long). Definitions:
docs/failover.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

OK = "ok"
CANCELLED = "cancelled"  # cut off by a stop: neither a success nor the server's failure
ERROR_CLASSES = ("connect", "reset", "timeout", "http_5xx", "http_4xx", "tls", "other")


@dataclass(frozen=True)
class Outcomes:
    """A point's outcomes per bucket of intended send time: counts per class and, for answered requests, per value
    of the counted header; per connection, answers per value (in `value_order`)."""

    start: float
    width_s: float
    classes: dict[str, list[int]]
    values: dict[str, list[int]]
    value_order: list[str]
    connections: list[list[int]]
    header: str | None = None

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> Outcomes:
        """The form stored in a point's extra["outcomes"] (series dense or sparse)."""
        return cls(start=float(stored["start"]), width_s=float(stored["bucket_ms"]) / 1000,
                   classes={k: decode(v) for k, v in (stored.get("classes") or {}).items()},
                   values={k: decode(v) for k, v in (stored.get("values") or {}).items()},
                   value_order=list(stored.get("value_order") or []), connections=list(stored.get("connections") or []),
                   header=stored.get("header"))  # fmt: skip

    @property
    def n(self) -> int:
        """The number of buckets."""
        return max((len(s) for s in (*self.classes.values(), *self.values.values())), default=0)

    def at(self, i: int) -> float:
        """Bucket i's start."""
        return self.start + i * self.width_s

    def index(self, t: float) -> int:
        """The bucket holding time t (may lie outside 0..n-1); a time on an edge (within float error) is the later one's."""
        return math.floor((t - self.start) / self.width_s + 1e-9)

    def series(self, name: str) -> list[int]:
        """A class's counts per bucket (zeros when it never occurred)."""
        return self.classes.get(name) or [0] * self.n

    def failures(self) -> list[int]:
        """Failed requests per bucket (every error class; cancelled ones are not failures)."""
        per = [0] * self.n
        for name in ERROR_CLASSES:
            for i, c in enumerate(self.classes.get(name) or []):
                per[i] += c
        return per


def decode(stored: list[int] | dict[str, Any]) -> list[int]:
    """One stored series as a dense list: stored dense, or sparse as {"n": length, "at": [[bucket, count], ...]}."""
    if isinstance(stored, list):
        return [int(c) for c in stored]
    dense = [0] * int(stored["n"])
    for i, c in stored["at"]:
        dense[int(i)] = int(c)
    return dense


def _span(o: Outcomes, since: float | None, until: float | None) -> range:
    """The buckets intended within [since, until) (the whole point when not given)."""
    first = 0 if since is None else max(0, o.index(since))
    last = o.n if until is None else min(o.n, o.index(until))
    return range(first, max(first, last))


def error_window(o: Outcomes, since: float | None = None, until: float | None = None) -> dict[str, float] | None:
    """From the start of the first bucket with a failed request to the end of the last (within [since, until)):
    {"start", "end", "duration_s", "failed"}; None when nothing failed."""
    fails = o.failures()
    hit = [i for i in _span(o, since, until) if fails[i]]
    if not hit:
        return None
    start, end = o.at(hit[0]), o.at(hit[-1] + 1)
    return {"start": start, "end": end, "duration_s": _s(end - start), "failed": sum(fails[i] for i in hit)}


def longest_gap(o: Outcomes, since: float | None = None, until: float | None = None) -> dict[str, float] | None:
    """The longest time without an answered request between two buckets that had one (within [since, until)):
    {"start", "end", "duration_s"}; a gap of 0 when every bucket had a success; None without two such buckets."""
    ok = o.series(OK)
    good = [i for i in _span(o, since, until) if ok[i]]
    if len(good) < 2:
        return None
    a, b = max(zip(good, good[1:]), key=lambda pair: pair[1] - pair[0])
    return {"start": o.at(a + 1), "end": o.at(b), "duration_s": _s(o.at(b) - o.at(a + 1))}


def failed_by_class(o: Outcomes, since: float | None = None, until: float | None = None) -> dict[str, int]:
    """Failed requests per error class (those that occurred) within [since, until)."""
    span = _span(o, since, until)
    found = {name: sum(o.classes[name][i] for i in span) for name in ERROR_CLASSES if name in o.classes}
    return {name: n for name, n in found.items() if n}


def detection_time(o: Outcomes, event: float, until: float | None = None) -> float | None:
    """From the event to the end of the last bucket with a failure after it (before `until`): how long the balancer
    sent requests to the failed backend; None when nothing failed after the event."""
    window = error_window(o, since=event, until=until)
    return None if window is None else _s(window["end"] - event)


def recovery_time(o: Outcomes, listening: float, value: str, until: float | None = None) -> float | None:
    """From the moment the restored backend listened again to the start of the first bucket, at or after it, with a
    request it answered (the counted header's `value`; without a counted header, any answer: the server is the
    backend); None when it answered none."""
    answered = (o.values.get(value) or []) if o.header else o.series(OK)
    first = next((i for i in _span(o, listening, until) if i < len(answered) and answered[i]), None)
    return None if first is None else _s(max(0.0, o.at(first) - listening))


def spread(o: Outcomes, since: float | None = None, until: float | None = None) -> dict[str, dict[str, float]]:
    """Answered requests per header value within [since, until): {value: {"requests", "share"}} (share of all
    answered requests that carried a counted value)."""
    span = _span(o, since, until)
    counts = {value: sum(o.values[value][i] for i in span if i < len(o.values[value])) for value in _ordered(o)}
    total = sum(counts.values())
    return {value: {"requests": n, "share": n / total if total else 0.0} for value, n in counts.items()}


def persistence(o: Outcomes) -> dict[str, Any] | None:
    """Per connection, the share of its answered requests that went to the value (backend) it used most: the
    requests-weighted mean, the lowest, and how many connections stayed on one value throughout; None without
    per-connection counts."""
    return _stayed(o.connections, "connections")


# Distribution over the backends and persistence per source (a point loaded by several agents, each from its own
# source address): the fanned point's outcomes are combined on the point's clock, each agent's answers per value kept.


def persistence_by_source(sources: dict[str, dict[str, int]]) -> dict[str, Any] | None:
    """Per source (an agent, which leaves by its own address), the share of its answered requests that went to the
    value (backend) it used most: as `persistence`, with `sources` counted and each one's main value and share in
    `per_source`; None without a source that had an answer."""
    names = [name for name, counts in sources.items() if sum(counts.values())]
    stayed = _stayed([list(sources[name].values()) for name in names], "sources")
    if stayed is None:
        return None
    main = {name: max(sources[name].items(), key=lambda item: item[1]) for name in names}
    stayed["per_source"] = {name: {"value": value, "share": n / sum(sources[name].values()), "requests": sum(sources[name].values())}
                            for name, (value, n) in main.items()}  # fmt: skip
    return stayed


def distribution(o: Outcomes, sources: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """Where the answered requests went over the whole point (a point no failure split): the counted header, the
    answered requests, how many values (backends) answered any, the spread over them, persistence per connection and,
    when several agents loaded the point, per source."""
    shares = spread(o)
    return {"header": o.header, "answered": sum(s["requests"] for s in shares.values()),
            "values_used": sum(1 for s in shares.values() if s["requests"]), "spread": shares, "persistence": persistence(o),
            "persistence_by_source": persistence_by_source(sources) if sources else None}  # fmt: skip


def combine(parts: dict[str, Outcomes]) -> tuple[Outcomes, dict[str, dict[str, int]]]:
    """Several agents' outcomes of one point (each on the point's clock) as one: buckets of the widest width from the
    earliest start, each agent's bucket added to the one its start falls in (exact to one bucket, as every figure);
    values in order of first appearance; connections of every agent, in that order; and per agent its answered
    requests per value (the counts persistence per source reads)."""
    width, start = max(o.width_s for o in parts.values()), min(o.start for o in parts.values())
    order = list(dict.fromkeys(v for o in parts.values() for v in _ordered(o)))
    moved = {name: [_bucket(o.start - start + i * o.width_s, width) for i in range(o.n)] for name, o in parts.items()}
    n = max((m[-1] + 1 for m in moved.values() if m), default=0)
    classes: dict[str, list[int]] = {}
    values: dict[str, list[int]] = {}
    for name, o in parts.items():
        for into, series in ((classes, o.classes), (values, o.values)):
            for key, counts in series.items():
                total = into.setdefault(key, [0] * n)
                for i, c in enumerate(counts):
                    total[moved[name][i]] += c
    connections = [[sum(row[i] for i, v in enumerate(o.value_order) if i < len(row) and v == value) for value in order]
                   for o in parts.values() for row in o.connections]  # fmt: skip
    sources = {name: {value: sum(o.values[value]) for value in _ordered(o)} for name, o in parts.items()}
    header = next((o.header for o in parts.values() if o.header), None)
    return Outcomes(start, width, classes, values, order, connections, header), sources


def _bucket(offset_s: float, width_s: float) -> int:
    """The bucket of that width an offset falls in; an offset within a microsecond of an edge is the later bucket's
    (epoch seconds carry a fraction of a microsecond of float error)."""
    return math.floor((offset_s + 1e-6) / width_s)


def _stayed(rows: list[list[int]], unit: str) -> dict[str, Any] | None:
    """Of the rows (answers per value) with an answer: how many (`unit`), the requests-weighted mean and the lowest
    share of a row's answers on its main value, and how many rows had every answer on one value; None without one."""
    used = [row for row in rows if sum(row)]
    if not used:
        return None
    shares = [max(row) / sum(row) for row in used]
    return {unit: len(used), "mean_share": sum(max(row) for row in used) / sum(sum(row) for row in used),
            "min_share": min(shares), "all_on_one": sum(1 for row in used if max(row) == sum(row))}  # fmt: skip


def failover(o: Outcomes, event: float, listening: float | None = None, value: str | None = None,
             until: float | None = None) -> dict[str, Any]:
    """Every figure of one failure event at `event` (a backend stopped), before `until` (the next event, or the end):
    the error window, the longest gap, failed requests by class, the detection time and, given when the restored
    backend (`value`) listened again, the recovery time; the spread before the event, during the error window, and
    after it (after the recovery, when there is one)."""
    window = error_window(o, since=event, until=until)
    recovery = recovery_time(o, listening, value) if listening is not None and value is not None else None
    during_end = window["end"] if window else event
    after_start = listening + recovery if recovery is not None else during_end
    return {
        "event": event, "error_window": window, "longest_gap": longest_gap(o, since=event, until=until),
        "failed_by_class": failed_by_class(o, since=event, until=until),
        "detection_s": detection_time(o, event, until), "recovery_s": recovery,
        "spread": {"before": spread(o, until=event), "during": spread(o, event, during_end), "after": spread(o, after_start)},
        "resolution_s": o.width_s,
    }  # fmt: skip


def _ordered(o: Outcomes) -> list[str]:
    return [v for v in o.value_order if v in o.values] + sorted(v for v in o.values if v not in o.value_order)


def _s(seconds: float) -> float:
    return round(seconds, 6)
