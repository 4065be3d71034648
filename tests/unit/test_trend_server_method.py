"""A trend's change points in the server's CPU per unit of work never fall on the campaign where the way the server's
counters are read changed (issue 46: the mean of scrape intervals → counters over the load's own window)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from kneeboard.trends.changes import detect
from kneeboard.trends.headline import INTERVALS, WINDOW, server_method


def rows(values: list[float], methods: list[str | None]) -> list[SimpleNamespace]:
    return [SimpleNamespace(campaign_id=i, server_cost=v, server_method=m) for i, (v, m) in enumerate(zip(values, methods))]


def test_a_jump_where_the_method_changed_is_no_change_point_but_one_within_a_method_is():
    rng = random.Random(7)
    old = [0.050 * rng.gauss(1, 0.01) for _ in range(12)]  # the old reading, 0.050 CPU-s per 1,000
    new = [0.073 * rng.gauss(1, 0.01) for _ in range(12)]  # read right: 0.073
    entries = rows(old + new, [INTERVALS] * 12 + [WINDOW] * 12)
    assert detect(entries, "server_cost") == []
    same = rows(old + new, [WINDOW] * 24)  # the same jump with one method is a change in the server
    assert [f.after.campaign_id for f in detect(same, "server_cost")] == [12]


def test_the_method_is_read_from_the_points_exporter_summaries():
    windowed = {"monitors": {"exporter.coredns": {"packs": {"coredns": {}}, "window": {}}, "mpstat": {}}}
    older = {"monitors": {"exporter.coredns": {"packs": {"coredns": {}}}}}
    assert server_method([windowed, windowed]) == WINDOW
    assert server_method([windowed, older]) == INTERVALS
    assert server_method([{"monitors": {"mpstat": {}}}]) is None
