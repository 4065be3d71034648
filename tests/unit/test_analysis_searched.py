"""A search's capacities as figures: per criterion, the mean of its repetitions with an interval, each repetition kept."""

from __future__ import annotations

import pytest

from kneeboard.analysis.capacity_verdict import capacity_verdict
from kneeboard.analysis.searched import search_capacities
from tests.unit.test_search_state import searched


def test_searches_compare_by_the_capacity_they_found():
    base, same, faster = (search_capacities(searched(c, 5), "req/s")[0] for c in (3000, 3000, 3300))
    assert [r["repeat"] for r in base["per_repeat"]] == [0, 1, 2, 3, 4] and base["kind"] == "between"
    assert base["value"] == pytest.approx(sum(r["value"] for r in base["per_repeat"]) / 5), "the mean, not one repetition's"
    assert base["ci_low"] <= base["value"] <= base["ci_high"] and base["label"] == "loss ≤ 5 %"
    assert capacity_verdict(base["per_repeat"], same["per_repeat"])["verdict"] == "equivalent"
    assert capacity_verdict(base["per_repeat"], faster["per_repeat"])["verdict"] == "better"
    two = search_capacities(searched(3000, 2), "req/s")[0]
    assert capacity_verdict(two["per_repeat"], same["per_repeat"])["verdict"] == "not enough data"
    assert search_capacities([], "req/s") == []


def test_one_run_keeps_the_searchs_own_bracket_as_its_interval():
    (one,) = search_capacities(searched(3000, 1), "req/s")
    assert one["repeats"] == 1 and one["ci_low"] <= one["value"] <= one["ci_high"]
    assert one["statement"].startswith(f"{one['value']:,.0f} req/s")


def test_a_variant_compares_by_its_own_searches():
    a, b = searched(3000, 3), searched(3600, 3)
    for s in a:
        s["variant"] = "1 queue"
    for s in b:
        s["variant"] = "4 queues"
    assert search_capacities(a + b, "req/s")[0]["value"] == search_capacities(a, "req/s")[0]["value"], "the first variant leads"
    mine = search_capacities(a + b, "req/s", variant="4 queues", first_variant=False)[0]
    assert 3500 < mine["value"] < 3800 and len(mine["per_repeat"]) == 3 and mine["variant"] == "4 queues"
