"""PromQL for a point: the query packs' queries written as PromQL for one target's label selector, the point's window
cut into query_range calls, and the answers turned into the same `server.*` samples the exporter scrape gives. Pure.

A pack query reads as the scrape reads it: a counter is `sum by (BY) (rate(METRIC{SELECTOR,LABELS}[W]))`, a gauge
`sum by (BY) (METRIC{…})`, a histogram `histogram_quantile(q, sum by (le, BY) (rate(METRIC_bucket{…}[W])))`; W, the
rate window, spans two of the server's scrapes. A step's value covers the W before it, so only steps whose window
lies inside the point (after its first second) are asked for: every value read is load.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from kneeboard.exporters.packs import Pack, Query, quantile_key
from kneeboard.tools import units
from kneeboard.tools.base import Sample

MAX_POINTS = 11_000  # Prometheus refuses a query_range of more points per series
CHUNK_STEPS = 10_000  # a long point is asked for in windows of at most this many steps
CUSTOM = "promql"  # a target's own queries are series server.promql.<name>
_MATCHER = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\\n]|\\.)*)"\s*(,|$)')
MAX_MATCHERS = 8


def parse_selector(text: str) -> list[tuple[str, str, str]]:
    """`{job="coredns", instance=~"10.0.0.5:.*"}` (braces optional) → [(label, op, value)]; ValueError saying why."""
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    matchers, at = [], 0
    while at < len(body.rstrip()):
        found = _MATCHER.match(body, at)
        if not found or found.end() == at:
            raise ValueError(f'not a label selector at {body[at:at + 20]!r}: write label="value" (or !=, =~, !~), comma-separated')
        matchers.append((found.group(1), found.group(2), _unescape(found.group(3))))
        at = found.end()
    if len(matchers) > MAX_MATCHERS:
        raise ValueError(f"at most {MAX_MATCHERS} label matchers")
    if any(label == "__name__" for label, _, _ in matchers):
        raise ValueError("the metric name is the pack's to say, not the selector's")
    return matchers


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "\\": "\\", '"': '"'}.get(m.group(1), "\\" + m.group(1)), value)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_selector(matchers: list[tuple[str, str, str]]) -> str:
    """The matchers as PromQL writes them, `{a="x",b=~"y"}` ("" for none)."""
    return "{" + ",".join(f"{label}{op}{_quote(value)}" for label, op, value in matchers) + "}" if matchers else ""


def rate_window_s(scrape_interval_s: float, step_s: float) -> float:
    """The rate window: two of the server's scrapes (rate needs two samples inside it), and at least two steps."""
    return max(2 * scrape_interval_s, 2 * step_s)


def _duration(seconds: float) -> str:
    return f"{max(1, math.ceil(seconds * 1000))}ms"


@dataclass(frozen=True)
class Expr:
    """One PromQL expression to evaluate: the series it feeds, how its answer's labels become value keys."""

    series: str  # server.<pack>.<query>
    promql: str
    by: tuple[str, ...]
    suffix: str = ""  # a histogram quantile's key ("p99"), after the `by` key
    scale: float = 1.0
    source: str = ""  # what the report names (the metric, or the query's name)


def pack_exprs(pack: Pack, selector: list[tuple[str, str, str]], window_s: float) -> list[Expr]:
    """Every query of a pack as PromQL over the target's selector; a histogram gives one expression per quantile."""
    return [expr for query in pack.queries for expr in query_exprs(pack.name, query, selector, window_s)]


def query_exprs(pack_name: str, query: Query, selector: list[tuple[str, str, str]], window_s: float) -> list[Expr]:
    """One pack query as PromQL (see the module's docstring)."""
    matchers = render_selector([*selector, *((k, "=", v) for k, v in query.labels.items())])
    series, by = f"server.{pack_name}.{query.name}", tuple(query.by)
    grouped = f"sum by ({','.join(by)}) " if by else "sum "
    if query.kind == "gauge":
        return [Expr(series, f"{grouped}({query.metric}{matchers})", by, scale=query.scale, source=query.metric)]
    if query.kind == "counter":
        return [Expr(series, f"{grouped}(rate({query.metric}{matchers}[{_duration(window_s)}]))", by,
                     scale=query.scale, source=query.metric)]
    buckets = f"sum by ({','.join(('le', *by))}) (rate({query.metric}_bucket{matchers}[{_duration(window_s)}]))"
    return [Expr(series, f"histogram_quantile({q:g}, {buckets})", by, quantile_key(q), query.scale, query.metric)
            for q in query.quantiles]


def custom_expr(name: str, promql: str, by: list[str]) -> Expr:
    """A target's own query, its series server.promql.<name>."""
    return Expr(f"server.{CUSTOM}.{name}", promql, tuple(by), source=name)


def first_step(start: float, end: float, window_s: float, warmup_s: float) -> float:
    """The first step whose rate window lies inside the point after its warm-up (the point's end, when none does)."""
    return min(start + warmup_s + window_s, end)


def windows(start: float, end: float, step_s: float, max_steps: int = CHUNK_STEPS) -> list[tuple[float, float]]:
    """[start, end] cut into query_range windows of at most max_steps steps each (Prometheus refuses more than 11,000
    points per series); the steps stay on start's grid, none asked twice."""
    if end < start:
        return []
    count = int(math.floor((end - start) / step_s + 1e-9)) + 1  # steps start, start + step, … ≤ end
    return [(start + i * step_s, start + (min(i + max_steps, count) - 1) * step_s) for i in range(0, count, max_steps)]


def read_matrix(expr: Expr, result: Any, max_series: int) -> tuple[dict[float, dict[str, float | None]], int]:
    """A query_range answer's `result` (a matrix) → ({t: {key: value × scale}}, series count); ValueError when it is
    not a matrix or holds more than max_series series (nothing kept then: narrow the selector)."""
    if not isinstance(result, list):
        raise ValueError("the answer holds no matrix")
    if len(result) > max_series:
        raise ValueError(f"{len(result)} series, over the cap of {max_series} per query: none kept (narrow the selector)")
    steps: dict[float, dict[str, float | None]] = {}
    for series in result:
        labels = series.get("metric") if isinstance(series, dict) else None
        values = series.get("values") if isinstance(series, dict) else None
        if not isinstance(labels, dict) or not isinstance(values, list):
            raise ValueError("a series without metric or values")
        key = ".".join(str(labels.get(label, "")) for label in expr.by) if expr.by else ""
        key = ".".join(k for k in (key, expr.suffix) if k) or "value"
        for pair in values:
            if not (isinstance(pair, list) and len(pair) == 2 and (t := _number(pair[0])) is not None):
                raise ValueError("a value without a time")
            value = _number(pair[1])
            steps.setdefault(round(t, 3), {})[key] = None if value is None else value * expr.scale
    return steps, len(result)


def _number(text: Any) -> float | None:
    """Prometheus writes sample values as strings ("1.5", "NaN", "+Inf"): a finite float, else None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def samples_of(read: dict[str, dict[float, dict[str, float | None]]]) -> list[Sample]:
    """Each series' steps ({series: {t: values}}, histogram quantiles merged into their series) → samples."""
    return [Sample(t=t, values=values, series=series)
            for series, steps in sorted(read.items()) for t, values in sorted(steps.items())
            if any(units.is_number(v) for v in values.values())]


MIN_SCRAPES = 3  # a point shorter than this many of the server's scrape intervals gets no PromQL count


def raw_counter_exprs(pack: Pack, selector: list[tuple[str, str, str]], seconds: float) -> list[Expr]:
    """A pack's counters as range selectors over the last `seconds` (`METRIC{…}[Ds]`): asked at the load's end, they
    give the raw samples Prometheus stored during the load."""
    return [Expr(f"server.{pack.name}.{query.name}",
                 f"{query.metric}{render_selector([*selector, *((k, '=', v) for k, v in query.labels.items())])}[{_duration(seconds)}]",
                 tuple(query.by), scale=query.scale, source=query.metric)
            for query in pack.queries if query.kind == "counter"]


def rate_between_samples(expr: Expr, result: Any, max_series: int) -> dict[str, float]:
    """A range selector's raw samples (a matrix) → {key: rate × scale}: each series' increase between its first and
    last samples (a reset counted from zero, as increase() does) over the time between them, without extrapolation;
    series summed by the query's `by` labels. A series with fewer than two samples gives nothing."""
    if not isinstance(result, list):
        raise ValueError("the answer holds no matrix")
    if len(result) > max_series:
        raise ValueError(f"{len(result)} series, over the cap of {max_series} per query: none kept (narrow the selector)")
    rates: dict[str, float] = {}
    for series in result:
        labels = series.get("metric") if isinstance(series, dict) else None
        pairs = series.get("values") if isinstance(series, dict) else None
        if not isinstance(labels, dict) or not isinstance(pairs, list):
            raise ValueError("a series without metric or values")
        points = sorted((t, v) for t, v in ((_number(p[0]), _number(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2)
                        if t is not None and v is not None)
        if len(points) < 2 or points[-1][0] <= points[0][0]:
            continue
        increase = sum(b - a if b >= a else b for (_, a), (_, b) in zip(points, points[1:]))
        key = ".".join(str(labels.get(label, "")) for label in expr.by) if expr.by else "value"
        rates[key] = rates.get(key, 0.0) + increase / (points[-1][0] - points[0][0]) * expr.scale
    return rates
