"""Merging the shares of a fanned point into one result, exactly. Pure: no I/O.

Rates and counts are summed; latency percentiles come from the shares' HDR histograms merged
bucket by bucket, so they are those of the union of every answer; averages are weighted by
answers and the standard deviation is pooled. kbhttp's request outcomes per 10 ms are summed on the
point's clock, each agent's answers per backend kept (persistence per source address). Each share is
kept beside the sum, with its own validity checks, so a weak agent is visible.
"""

from __future__ import annotations

import math
from collections import defaultdict

from kneeboard.analysis import failover, hdr
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.tools.base import PointResult, Sample
from kneeboard.tools.kbhttp import outcomes as kbhttp_outcomes

SHORTFALL = 0.95  # a share achieving less of its offered rate is flagged
BUSY_CPU = 0.9  # a generator using this share of its agent's CPUs may be the bottleneck
SUMMED_UNITS = frozenset({"count", "qps"})
MORE_HISTOGRAMS = {"service_hdr": "service", "lateness_hdr": "lateness"}  # a tool's other distributions (kbhttp): extra key → metric prefix


def summed(unit: str) -> bool:
    """Counts and rates add up across agents."""
    return unit in SUMMED_UNITS or unit.endswith("/s")


def merge(shares: list[ShareOutcome], units: dict[str, str], duration_s: float) -> PointResult:
    """One point result from its shares; shares with an error are listed but not counted."""
    good = [s for s in shares if s.error is None]
    result = PointResult(parser_version=shares[0].parser_version if shares else "1")
    result.metrics = _metrics(good, units)
    result.extra = {"shares": [_share_row(s) for s in shares], "start_skew_ms": start_skew_ms(shares),
                    "warnings": _warnings(shares, duration_s)}
    histograms = [s.extra.get("hdr") for s in good]
    if good and all(histograms):
        total = hdr.merge(histograms)
        result.metrics.update(hdr.percentiles_ms(total))
        result.extra["hdr"] = hdr.encode(total)
        result.extra["hdr_intervals"] = _merged_intervals(good)
    for key, prefix in MORE_HISTOGRAMS.items():
        parts = [s.extra.get(key) for s in good]
        if good and all(parts):
            merged = hdr.merge(parts)
            result.metrics.update({name.replace("latency_", f"{prefix}_"): v for name, v in hdr.percentiles_ms(merged).items()})
            result.extra[key] = hdr.encode(merged)
    stored = _outcomes(good)
    if stored:
        result.extra["outcomes"] = stored
    result.samples = _samples(good, result.extra.get("hdr_intervals", []))
    if not good:
        result.error = "every agent's share failed: " + "; ".join(f"{s.agent}: {s.error}" for s in shares)
    return result


def start_skew_ms(shares: list[ShareOutcome]) -> float | None:
    """Milliseconds between the earliest and the latest agent start (server clock)."""
    starts = [s.started_at for s in shares if s.started_at is not None]
    return round((max(starts) - min(starts)) * 1000.0, 3) if len(starts) > 1 else None


def _metrics(good: list[ShareOutcome], units: dict[str, str]) -> dict[str, float | None]:
    names = {n for s in good for n in s.metrics}
    weights = [_weight(s) for s in good]
    out: dict[str, float | None] = {}
    for name in sorted(names):
        values = [(s.metrics.get(name), w) for s, w in zip(good, weights)]
        present = [(v, w) for v, w in values if v is not None]
        if not present:
            out[name] = None
        elif summed(units.get(name, "")):
            out[name] = float(sum(v for v, _ in present))
        elif name.endswith("_min_ms"):
            out[name] = min(v for v, _ in present)
        elif name.endswith("_max_ms"):
            out[name] = max(v for v, _ in present)
        else:
            out[name] = _weighted_mean(present)
    for name in names & {f"{p}_stddev_ms" for p in ("latency",)}:
        out[name] = _pooled_stddev(good, weights, name.replace("_stddev_ms", "_avg_ms"), name)
    if out.get("sent"):
        out["loss_pct"] = 100.0 * (out.get("lost") or 0.0) / out["sent"]
    return out


def _weight(share: ShareOutcome) -> float:
    """Answers (or, lacking them, the achieved rate) weigh each share's averages."""
    for key in ("completed", "achieved_rate"):
        value = share.metrics.get(key)
        if value:
            return float(value)
    return 1.0


def _weighted_mean(values: list[tuple[float, float]]) -> float:
    total = sum(w for _, w in values)
    return sum(v * w for v, w in values) / total


def _pooled_stddev(good: list[ShareOutcome], weights: list[float], mean_key: str, sd_key: str) -> float | None:
    """The standard deviation of the union from each share's mean and deviation (population form)."""
    rows = [(s.metrics.get(mean_key), s.metrics.get(sd_key), w) for s, w in zip(good, weights)]
    if any(m is None or sd is None for m, sd, _ in rows):
        return None
    n = sum(w for _, _, w in rows)
    mean = sum(m * w for m, _, w in rows) / n
    return math.sqrt(max(0.0, sum(w * (sd * sd + m * m) for m, sd, w in rows) / n - mean * mean))


def _merged_intervals(good: list[ShareOutcome]) -> list[list]:
    """Each whole second's interval histograms of every agent merged into one."""
    by_second: dict[int, list[str]] = defaultdict(list)
    for share in good:
        for t, encoded in share.extra.get("hdr_intervals") or []:
            by_second[round(t)].append(encoded)
    return [[float(t), hdr.encode(hdr.merge(parts))] for t, parts in sorted(by_second.items())]


def _samples(good: list[ShareOutcome], intervals: list[list]) -> list:
    """Each agent's series kept as `agent.NAME`; the point series is their per-second sum."""
    kept, sums = [], defaultdict(lambda: defaultdict(float))
    for share in good:
        for row in share.samples:
            kept.append(Sample(t=row["t"], values=row["values"], series=f"agent.{share.agent}" if row["series"] == "point" else row["series"]))
            if row["series"] == "point" and row["values"].get("achieved_rate") is not None:
                sums[round(row["t"])]["achieved_rate"] += row["values"]["achieved_rate"]
    latency = {round(t): hdr.percentiles_ms(hdr.decode(encoded)) for t, encoded in intervals}
    point = [Sample(t=float(t), values={**values, **latency.get(t, {})}) for t, values in sorted(sums.items())]
    return point + kept


def _outcomes(good: list[ShareOutcome]) -> dict | None:
    """Every agent's request outcomes per bucket (kbhttp's) as the point's, on its clock, stored as one agent's are,
    with `sources`: per agent (its own source address), its answered requests per counted value; None unless every
    share has them."""
    parts = {s.agent: s.extra.get("outcomes") for s in good}
    if not parts or not all(parts.values()):
        return None
    merged, sources = failover.combine({agent: failover.Outcomes.from_stored(p) for agent, p in parts.items()})
    head = {"version": next(iter(parts.values())).get("version"), "buckets": merged.n, "header": merged.header,
            "values": merged.value_order}
    stored = kbhttp_outcomes.compact(merged.start, round(merged.width_s * 1000, 6), merged.classes, merged.values, merged.connections, head,
                                     sum(p.get("connections_total") or 0 for p in parts.values()))  # fmt: skip
    if merged.header:
        stored["sources"] = sources
    return stored


def _share_row(share: ShareOutcome) -> dict:
    return {"agent": share.agent, "offered_rate": share.offered_rate, "achieved_rate": share.metrics.get("achieved_rate"),
            "cpu_s": share.cpu_s, "cpus": share.cpus, "started_at": share.started_at, "error": share.error,
            "argv": share.argv, "exit_code": share.exit_code, "hdr": share.extra.get("hdr"),
            "stdout_tail": share.stdout[-2000:], "stderr_tail": share.stderr[-2000:],
            "extra": {k: v for k, v in share.extra.items() if isinstance(v, (int, float, str, bool))}}  # the tool's own figures (devsim: logins)


def _warnings(shares: list[ShareOutcome], duration_s: float) -> list[str]:
    """The point's validity checks, per agent: achieved vs offered, generator CPU; plus each share's own warnings."""
    out = []
    for s in shares:
        out += [f"{s.agent}: {w}" for w in s.extra.get("warnings") or []]
        if s.error is not None:
            out.append(f"{s.agent}: share failed: {s.error}")
            continue
        achieved = s.metrics.get("achieved_rate")
        if s.offered_rate and achieved is not None and achieved < SHORTFALL * s.offered_rate:
            out.append(f"{s.agent} achieved {achieved:g} of the {s.offered_rate:g} offered to it "
                       f"({100 * achieved / s.offered_rate:.0f} %): this agent may be too weak for its share")
        if s.cpu_s is not None and s.cpus and duration_s and s.cpu_s / duration_s > BUSY_CPU * s.cpus:
            out.append(f"{s.agent}'s generator used {100 * s.cpu_s / duration_s / s.cpus:.0f} % of its {s.cpus} CPUs: "
                       "the client may have been the limit")
    return out
