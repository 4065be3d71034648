"""The exporter monitor's raw values → samples: counters as rates per second, gauges as they are, histograms as
quantiles over each interval's new observations; and a point's summary. Pure.

Each pair of successive successful scrapes gives one interval, stamped with the later scrape's time. A counter
(or a histogram's bucket) that went down gives no value for that interval (a restart); a key missing from
either scrape gives none either. A gauge's value is the later scrape's.
"""

from __future__ import annotations

import json
import math
from typing import Any

from kneeboard.exporters.packs import Pack, Query, quantile_key
from kneeboard.tools import units
from kneeboard.tools.base import Sample


def read_lines(stdout: str, payload: str = "values") -> tuple[list[dict[str, Any]], list[str]]:
    """A scraper's lines → (successful scrapes, those with a `payload` object, in time order; error messages)."""
    scrapes, errors = [], []
    for line in (stdout or "").splitlines():
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not units.is_number(data.get("t")):
            errors.append(f"not a scraper line: {line[:80]!r}")
        elif data.get("error"):
            errors.append(str(data["error"]))
        elif isinstance(data.get(payload), dict):
            scrapes.append(data)
    scrapes.sort(key=lambda s: s["t"])
    return scrapes, errors


def histogram_quantile(q: float, before: dict[str, float], after: dict[str, float]) -> float | None:
    """The q-quantile of the observations made between two scrapes of cumulative buckets {le: count}, interpolated
    linearly inside its bucket as Prometheus's histogram_quantile does; None without observations or after a reset."""
    buckets = []
    for le, count in after.items():
        try:
            bound = float(le)
        except ValueError:
            return None
        if le not in before or count < before[le]:
            return None
        buckets.append((bound, count - before[le]))
    buckets.sort()
    if not buckets or not math.isinf(buckets[-1][0]) or buckets[-1][1] <= 0:
        return None
    rank, lower, below = q * buckets[-1][1], 0.0, 0.0
    for bound, cumulative in buckets:
        if cumulative >= rank:
            if math.isinf(bound):
                return lower  # the highest finite bound, as Prometheus answers
            if cumulative == below:
                return bound
            return lower + (bound - lower) * (rank - below) / (cumulative - below)
        lower, below = bound, cumulative
    return None


def query_values(query: Query, before: dict[str, Any], after: dict[str, Any], elapsed: float) -> dict[str, float | None]:
    """One query's values over one interval, keyed as its series' values are, scaled to its unit."""
    values: dict[str, float | None] = {}
    for key, now in sorted(after.items()):
        old = before.get(key)
        if query.kind == "gauge" and units.is_number(now):
            values[key] = now * query.scale
        elif query.kind == "counter" and units.is_number(now) and units.is_number(old):
            values[key] = (now - old) / elapsed * query.scale if now >= old else None
        elif query.kind == "histogram" and isinstance(now, dict) and isinstance(old, dict):
            for q in query.quantiles:
                found = histogram_quantile(q, old, now)
                values[f"{quantile_key(q)}" if key == "value" else f"{key}.{quantile_key(q)}"] = (
                    None if found is None else found * query.scale)
    return values


def interval_samples(before: dict[str, Any], after: dict[str, Any], packs: list[Pack]) -> list[Sample]:
    """One interval's samples: a `server.<pack>.<query>` series for every query with a value."""
    t, elapsed = float(after["t"]), float(after["t"]) - float(before["t"])
    if elapsed <= 0:
        return []
    samples = []
    for pack in packs:
        for query in pack.queries:
            key = f"{pack.name}.{query.name}"
            values = query_values(query, before["values"].get(key) or {}, after["values"].get(key) or {}, elapsed)
            if any(v is not None for v in values.values()):
                samples.append(Sample(t=t, values=values, series=f"server.{key}"))
    return samples


def all_samples(scrapes: list[dict[str, Any]], packs: list[Pack]) -> list[Sample]:
    """Every interval's samples, from successive scrapes."""
    return [s for before, after in zip(scrapes, scrapes[1:]) for s in interval_samples(before, after, packs)]


def summarise(samples: list[Sample], since: float, until: float | None = None) -> dict[str, Any]:
    """Each series' values averaged over the samples stamped after `since` and, when given, no later than `until` (the
    steady window: an interval that ends after the load did holds part of its tail); never an interval outside it:
    {"packs": {pack: {query: {key: mean}}}, "steady_intervals": n, "steady_since": since}."""
    steady = [s for s in samples if s.t > since and (until is None or s.t <= until)]
    sums: dict[str, dict[str, list[float]]] = {}
    for s in steady:
        for key, value in s.values.items():
            if value is not None:
                sums.setdefault(s.series, {}).setdefault(key, []).append(value)
    packs: dict[str, dict[str, dict[str, float]]] = {}
    for series, keys in sums.items():
        _, pack, query = series.split(".", 2)
        packs.setdefault(pack, {})[query] = {k: sum(v) / len(v) for k, v in keys.items()}
    return {"packs": packs, "steady_intervals": len({s.t for s in steady}), "steady_since": since}


def counted(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """A counter's increase between two readings per key, unscaled; a key that went down (the server restarted) or
    that the first reading did not have (a series the server creates at its first event: CoreDNS's request counter)
    counts from zero."""
    return {key: now - before[key] if units.is_number(before.get(key)) and now >= before[key] else now
            for key, now in after.items() if units.is_number(now)}


def still_counting(before: dict[str, Any], previous: dict[str, Any], now: dict[str, Any], packs: list[Pack],
                   share: float) -> bool:
    """Whether the server's request counters (the packs' `requests` role) rose from `previous` to `now` (two readings
    after the load) at more than `share` of the rate they rose at from `before` (right before it) to `previous`: a
    saturated server still answering its backlog after the tool ended. False when a reading failed or nothing counts."""
    if not all("values" in r and units.is_number(r.get("t")) for r in (before, previous, now)):
        return False
    load_s, step_s = float(previous["t"]) - float(before["t"]), float(now["t"]) - float(previous["t"])
    if load_s <= 0 or step_s <= 0:
        return False
    for key in (f"{p.name}.{q.name}" for p in packs for q in p.queries if q.role == "requests"):
        during = sum(counted(before["values"].get(key) or {}, previous["values"].get(key) or {}).values())
        after = sum(counted(previous["values"].get(key) or {}, now["values"].get(key) or {}).values())
        if during > 0 and after / step_s > share * during / load_s:
            return True
    return False


def window_summary(before: dict[str, Any], after: dict[str, Any], packs: list[Pack], load_s: float,
                   inside: list[Sample]) -> dict[str, Any]:
    """The point's figures from two readings that bracket its load (`before` right before it started, `after` right
    after it ended): a counter's increase over the load divided by `load_s`, a histogram's quantiles over the load's
    observations, a gauge's mean over the scrapes `inside` the load (the `after` reading's value when none is).
    {"packs": {pack: {query: {key: value}}}, "window": {"before_t", "after_t", "load_s", "counted", "resets"}}."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    totals: dict[str, dict[str, float]] = {}
    resets: list[str] = []
    means = summarise(inside, float("-inf"))["packs"] if inside else {}
    for pack in packs:
        for query in pack.queries:
            key = f"{pack.name}.{query.name}"
            old, now = before["values"].get(key) or {}, after["values"].get(key) or {}
            if query.kind == "counter":
                increase = counted(old, now)
                resets += [f"{key} {k}" for k, v in now.items() if units.is_number(v) and units.is_number(old.get(k)) and v < old[k]]
                values = {k: v / load_s * query.scale for k, v in increase.items()} if load_s > 0 else {}
                if increase:
                    totals[key] = increase
            elif query.kind == "histogram":
                values = {k: v for k, v in query_values(query, old, now, 1.0).items() if v is not None}
            else:
                values = (means.get(pack.name) or {}).get(query.name) or {
                    k: v for k, v in query_values(query, old, now, 1.0).items() if v is not None}
            if values:
                out.setdefault(pack.name, {})[query.name] = values
    return {"packs": out, "window": {"before_t": float(before["t"]), "after_t": float(after["t"]), "load_s": load_s,
                                     "counted": totals, "resets": resets}}
