"""A metrics page → the raw values the packs' queries ask for, bounded. Pure.

Samples matching a query (its metric name and exact label filter) are summed over the labels the query does
not keep apart (`by`), as PromQL's `sum by (...)` does; a histogram keeps its buckets apart by `le`. At most
`max_series` samples of the page are kept (in page order); the rest are counted as dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from kneeboard.exporters.packs import Pack, Query
from kneeboard.tools.exporter.fetch import ScrapeError

MAX_SERIES = 200  # per exporter: a page's samples the packs may keep


def _index(packs: Iterable[Pack]) -> dict[str, list[tuple[str, Query, bool]]]:
    """sample name → [(series key "pack.query", query, is a histogram bucket)]."""
    index: dict[str, list[tuple[str, Query, bool]]] = {}
    for pack in packs:
        for query in pack.queries:
            bucket = query.kind == "histogram"
            name = f"{query.metric}_bucket" if bucket else query.metric
            index.setdefault(name, []).append((f"{pack.name}.{query.name}", query, bucket))
    return index


def select(text: str, packs: Iterable[Pack], max_series: int = MAX_SERIES) -> dict[str, Any]:
    """{"values": {"pack.query": {key: number | {le: number}}}, "kept": n, "dropped": n}; ScrapeError when the
    text is not Prometheus exposition format."""
    index = _index(packs)
    values: dict[str, dict[str, Any]] = {}
    kept = dropped = 0
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                wanted = index.get(sample.name)
                if not wanted or not math.isfinite(sample.value):
                    continue
                matching = [w for w in wanted if all(sample.labels.get(k) == v for k, v in w[1].labels.items())]
                if not matching:
                    continue
                if kept >= max_series:
                    dropped += 1
                    continue
                kept += 1
                for series, query, bucket in matching:
                    _add(values.setdefault(series, {}), query.keys(sample.labels), sample, bucket)
    except ValueError as exc:
        raise ScrapeError(f"not Prometheus text ({exc})") from None
    return {"values": values, "kept": kept, "dropped": dropped}


def _add(into: dict[str, Any], key: str, sample: Any, bucket: bool) -> None:
    if bucket:
        le = sample.labels.get("le")
        if le is None:
            return
        buckets = into.setdefault(key, {})
        buckets[le] = buckets.get(le, 0.0) + sample.value
    else:
        into[key] = into.get(key, 0.0) + sample.value
