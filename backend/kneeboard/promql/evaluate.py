"""After a point: its target's PromQL read from the team's Prometheus over the point's window, as the samples and the
summary the exporter scrape gives (`server.<pack>.<query>`, `packs.<pack>.<query>.<key>`), so the server evidence
reads them unchanged. Whatever goes wrong (the server gone from the registry or the allow-list, down, slow,
redirecting, a query error, too many series, an answer too large) is a warning on the point; the point is kept.

The summary is filed under "exporter.prometheus NAME" (no exporter name holds a space): the evidence takes it
like an exporter's, named "exporter prometheus NAME: METRIC" in the report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from kneeboard.db import session_scope
from kneeboard.errors import PolicyRefused
from kneeboard.exporters.packs import all_packs
from kneeboard.promql import queries, service
from kneeboard.promql.client import PromQLError, query_at, query_range
from kneeboard.promql.schemas import PrometheusSource
from kneeboard.tools.exporter.adapter import WARMUP_S
from kneeboard.tools.exporter.select import MAX_SERIES
from kneeboard.tools.exporter.series import summarise

STEP_S = 1.0  # the points' sample interval
LAG_MARGIN_S = 1.0  # past one scrape interval after the load, for the server to have stored the last scrape
MAX_WAIT_S = 30.0  # however slowly the server scrapes, a point waits no longer than this for it
TOTAL_S = 60.0  # every query of a point, together


@dataclass
class Evaluated:
    """What a point's PromQL gave: samples, a summary filed under `label`, warnings."""

    label: str
    samples: list = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def label_of(server: str) -> str:
    """The monitor label a Prometheus's summary is filed under."""
    return f"exporter.prometheus {server}"


@dataclass(frozen=True)
class _Server:
    name: str
    url: str
    address: str
    headers: dict[str, str]
    scrape_interval_s: float


def _server(name: str) -> _Server:
    """The registered server, its host checked against the allow-list now (one resolution: the address queried)."""
    with session_scope() as session:
        row = service.by_name(name, session=session)
        if row is None:
            raise PromQLError("no longer registered: not queried")
        address = service.ALLOWLIST.check(row.url, session=session)[0]
        return _Server(row.name, row.url, address, service.authorization(row), row.scrape_interval_s)


def after_point(source: dict, start: float, load_end: float, *, sleep: Callable[[float], None] = time.sleep) -> Evaluated:
    """Wait out the server's scrape interval after the load, then evaluate every query over [start, load_end]; never
    raises (whatever fails is a warning: the point is measured already)."""
    name = str((source or {}).get("server"))
    try:
        return _evaluate(PrometheusSource.model_validate(source), start, load_end, sleep)
    except Exception as exc:  # noqa: BLE001 - a stale source, a database blip: the point keeps its measure
        return Evaluated(label_of(name), warnings=[f"prometheus {name}: not read: {type(exc).__name__}: {str(exc)[:300]}"])


def _evaluate(wanted: PrometheusSource, start: float, load_end: float, sleep: Callable[[float], None]) -> Evaluated:
    found = Evaluated(label_of(wanted.server))
    try:
        server = _server(wanted.server)
    except (PromQLError, PolicyRefused) as exc:
        found.warnings.append(f"prometheus {wanted.server}: {exc}")
        return found
    window_s = queries.rate_window_s(server.scrape_interval_s, STEP_S)
    first = queries.first_step(start, load_end, window_s, WARMUP_S)
    sleep(max(0.0, load_end + min(server.scrape_interval_s + LAG_MARGIN_S, MAX_WAIT_S) - time.time()))
    selector = queries.parse_selector(wanted.selector)
    exprs = [e for name in wanted.packs if name in all_packs() for e in queries.pack_exprs(all_packs()[name], selector, window_s)]
    exprs += [queries.custom_expr(q.name, q.query, q.by) for q in wanted.queries]
    read, counts = _run(server, exprs, first, load_end, found.warnings)
    found.samples = queries.samples_of(read)
    found.summary = {**counts, "window_s": window_s, "first_step": round(first, 3),
                     **summarise(found.samples, first - 1e-3, until=load_end + 1e-3)}  # the API's millisecond grid
    packs = [all_packs()[name] for name in wanted.packs if name in all_packs()]
    _count_over_load(server, packs, selector, start, load_end, found)
    if not found.samples and not found.warnings:
        found.warnings.append(f"prometheus {server.name}: no query gave a value over the point (is the selector right?)")
    return found


def _run(server: _Server, exprs: list[queries.Expr], first: float, end: float, warnings: list[str]) -> tuple[dict, dict]:
    """Every expression over every window of the point; ({series: {t: values}}, counts). Stops at a server-wide failure."""
    read: dict[str, dict[float, dict[str, float | None]]] = {}
    counts = {"queries": 0, "query_errors": 0, "first_error": None, "series_kept": 0}
    deadline = time.monotonic() + TOTAL_S
    for expr in exprs:
        try:
            for at, until in queries.windows(first, end, STEP_S):
                if time.monotonic() > deadline:
                    raise PromQLError(f"the point's queries took over {TOTAL_S:g} s: the rest were not asked")
                counts["queries"] += 1
                result = query_range(server.url, server.address, server.headers, expr.promql, at, until, STEP_S)
                steps, kept = queries.read_matrix(expr, result, MAX_SERIES)
                counts["series_kept"] += kept
                for t, values in steps.items():
                    read.setdefault(expr.series, {}).setdefault(t, {}).update(values)
        except (PromQLError, ValueError) as exc:
            counts["query_errors"] += 1
            counts["first_error"] = counts["first_error"] or str(exc)
            if getattr(exc, "server_wide", False):
                warnings.append(f"prometheus {server.name}: {exc}; its queries were not read for this point")
                break
            warnings.append(f"prometheus {server.name}: {expr.series} ({expr.source}): {exc}")
    return read, counts


def _count_over_load(server: _Server, packs: list, selector: list, start: float, load_end: float, found: Evaluated) -> None:
    """Each counter's rate over the load from the first and last samples Prometheus stored inside it (no rate()
    window reaching past the load, no extrapolation), in place of the steps' mean; a load shorter than MIN_SCRAPES of
    the server's scrape intervals is marked too short and its counters left out, never given a wrong figure."""
    seconds = load_end - start
    exprs = [e for p in packs for e in queries.raw_counter_exprs(p, selector, max(0.001, seconds - WARMUP_S))]
    if not exprs:
        return
    summary = found.summary.setdefault("packs", {})
    if seconds < queries.MIN_SCRAPES * server.scrape_interval_s:
        for expr in exprs:
            _, pack, query = expr.series.split(".", 2)
            (summary.get(pack) or {}).pop(query, None)
        found.summary["counters"] = (f"too short for a PromQL count: the load lasted {seconds:.1f} s, under {queries.MIN_SCRAPES} "
                                     f"of the server's {server.scrape_interval_s:g} s scrape intervals")
        return
    for expr in exprs:
        _, pack, query = expr.series.split(".", 2)
        try:
            result = query_at(server.url, server.address, server.headers, expr.promql, load_end)
            rates = queries.rate_between_samples(expr, result, MAX_SERIES)
        except (PromQLError, ValueError) as exc:
            found.warnings.append(f"prometheus {server.name}: {expr.series} ({expr.source}) over the load: {exc}")
            continue
        if rates:
            summary.setdefault(pack, {})[query] = rates
    found.summary["counters"] = (f"between the first and last samples stored inside the load after its first {WARMUP_S:g} s "
                                 f"({start + WARMUP_S:.3f} … {load_end:.3f})")
