"""A CPU profile's top functions and the differential between two points (pure)."""

from __future__ import annotations

from collections import Counter

import pytest

from kneeboard.profiling import analysis
from kneeboard.profiling.folding import fold

A = Counter({"main;serve;lookup": 6, "main;serve;send;write_[k]": 4})
B = Counter({"main;serve;log;format": 3, "main;serve;log;write_[k]": 5, "main;serve;lookup": 6, "main;serve;send;write_[k]": 4})


def test_self_and_total_count_a_recursive_function_once_per_sample():
    c = analysis.costs(Counter({"a;b;a;b": 2, "a;c": 1}))
    assert c.total["a"] == 3 and c.total["b"] == 2 and c.self_["b"] == 2 and c.self_["a"] == 0 and c.samples == 3


def test_top_functions_by_self_with_shares_and_per_thousand():
    top = analysis.top_functions(B, requests=9000, limit=3)
    assert [t["function"] for t in top] == ["write_[k]", "lookup", "format"]
    write = top[0]
    assert write["self_samples"] == write["total_samples"] == 9 and write["self_pct"] == pytest.approx(50.0)
    assert write["self_per_1k"] == pytest.approx(1.0)
    by_total = analysis.top_functions(B, requests=None, limit=2, by="total")
    assert [t["function"] for t in by_total] == ["main", "serve"] and by_total[0]["total_per_1k"] is None


def test_the_differential_names_what_grew_per_thousand_requests_and_as_a_share():
    d = analysis.differential(A, 10_000, B, 10_000, limit=10)
    first = d["functions_by_total"][0]  # main and serve grew by the same 8 samples as log: the tie goes by name
    grown = {f["function"]: f for f in d["functions"]}
    assert grown["log"]["total_per_1k_change"] == pytest.approx(0.8) and grown["log"]["total_pct_a"] == 0
    assert grown["write_[k]"]["self_per_1k_change"] == pytest.approx(0.5) and first["total_per_1k_change"] == pytest.approx(0.8)
    assert grown["lookup"]["total_per_1k_change"] == 0 and grown["lookup"]["total_pct_change"] == pytest.approx(100 * 6 / 18 - 60)
    frames = {f["path"]: f for f in d["frames"]}
    assert frames["main;serve;log"]["total_per_1k_change"] == pytest.approx(0.8) and frames["main;serve;log"]["frame"] == "log"
    assert frames["main;serve;log;write_[k]"]["total_per_1k_change"] == pytest.approx(0.5)
    assert d["frames"][0]["path"] == "main"  # the shallowest of the equal changes first
    pairs = {s["stack"]: s for s in d["stacks"]}
    assert pairs["main;serve;log;format"] == {"stack": "main;serve;log;format", "per_1k_a": 0.0, "per_1k_b": pytest.approx(0.3)}


def test_per_thousand_takes_each_points_own_request_count():
    d = analysis.differential(A, 10_000, A, 20_000)
    assert d["per_1k_a"] == pytest.approx(1.0) and d["per_1k_b"] == pytest.approx(0.5)
    assert all(f["total_pct_change"] == 0 for f in d["functions"])  # the same shares: only the cost per request halved


def test_on_real_coredns_profiles_the_log_handler_grew_most(fixtures_dir):
    """Both fixtures were 2 s of CoreDNS at 10,000 q/s: 20,000 queries each."""
    minimal, log_file = (fold(open(fixtures_dir / f"perf-6.1-script-coredns-{n}-Q10000.txt"), "coredns").stacks
                         for n in ("minimal", "log_file"))  # fmt: skip
    d = analysis.differential(minimal, 20_000, log_file, 20_000)
    by_total = d["functions_by_total"][0]
    assert "plugin/log." in by_total["function"] and by_total["total_per_1k_change"] == pytest.approx(1.9)
    assert d["frames"][0]["frame"].startswith("github.com/coredns/coredns/plugin/log.")


def test_the_default_view_ranks_what_grew_in_itself_first():
    """The hot function's self time grows; its callers (and the root) grow as much in total but not in themselves. By
    self change (the default, as perf diff ranks) the hot function is first; by total change the root is."""
    reference = Counter({"main;serve;handle;hot": 50, "main;serve;handle;parse": 30, "main;serve;accept": 20})
    costlier = Counter({"main;serve;handle;hot": 110, "main;serve;handle;parse": 31, "main;serve;accept": 19})
    d = analysis.differential(reference, 10_000, costlier, 10_000)
    assert d["ranked_by"] == "self" and d["sign"] == "B − A per 1,000 requests, A the reference"
    first = d["functions"][0]
    assert first["function"] == "hot" and first["self_per_1k_change"] == pytest.approx(6.0)  # (110 − 50) / 10,000 × 1,000
    callers = {f["function"]: f for f in d["functions"]}
    for caller in ("main", "serve", "handle"):
        assert callers[caller]["self_per_1k_change"] == 0 and callers[caller]["total_per_1k_change"] >= first["total_per_1k_change"]
    assert d["functions_by_total"][0]["function"] == "handle"  # +6.1 in total (hot's +6.0 and parse's +0.1), nothing in itself


def test_a_shrinking_function_ranks_by_the_size_of_its_change_and_keeps_its_sign():
    """B − A: what B does less of is negative, ranked by its size as perf diff does."""
    reference = Counter({"main;a": 100, "main;b": 10})
    cheaper = Counter({"main;a": 40, "main;b": 15})
    d = analysis.differential(reference, 1_000, cheaper, 1_000)
    assert [f["function"] for f in d["functions"][:2]] == ["a", "b"] and d["functions"][0]["self_per_1k_change"] == pytest.approx(-60.0)
