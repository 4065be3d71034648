"""A fanned kbhttp point's outcomes merged on the point's clock, and the distribution over the backends with persistence
per connection and per source (issue 39). The shares are two real captures through lab-haproxy
(tests/fixtures/tool-output/kbhttp-0.3-haproxy-*: their header values come in different orders), the second moved to
start 53 ms after the first, as an agent starting later would."""

from __future__ import annotations

import pytest

from kneeboard.analysis import failover
from kneeboard.runs import fired_events as service
from kneeboard.events.schedule import Fired
from kneeboard.fanout.merge import merge
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.tools.kbhttp import outcomes
from tests.unit.test_analysis_failover import REDISPATCH, ROUNDROBIN

LATER_S = 0.053  # five buckets and 3 ms


def stored(fixtures_dir, name: str) -> dict:
    found, warnings = outcomes.parse((fixtures_dir / f"{name}.jsonl").read_text())
    assert warnings == []
    return found


@pytest.fixture()
def shares(fixtures_dir) -> tuple[dict, dict]:
    first, second = stored(fixtures_dir, ROUNDROBIN), stored(fixtures_dir, REDISPATCH)
    second["start"] = first["start"] + LATER_S
    assert first["value_order"] != second["value_order"], "the merge must match values by name"
    return first, second


def merged_outcomes(first: dict, second: dict) -> dict:
    result = merge([ShareOutcome(agent="agent-1", extra={"outcomes": first}), ShareOutcome(agent="agent-2", extra={"outcomes": second})],
                   {}, 8.0)  # fmt: skip
    return result.extra["outcomes"]


def test_fanned_outcomes_are_summed_bucket_by_bucket_on_the_points_clock(shares):
    first, second = shares
    a, b = failover.Outcomes.from_stored(first), failover.Outcomes.from_stored(second)
    both = failover.Outcomes.from_stored(merged_outcomes(first, second))
    assert both.start == a.start and both.width_s == 0.01 and both.n == max(a.n, b.n + 5)
    for name in ("ok", "http_5xx"):
        expected = [a.series(name)[i] if i < a.n else 0 for i in range(both.n)]
        for i in range(b.n):
            expected[i + 5] += b.series(name)[i]
        assert both.series(name) == expected, name
    for value in ("b1", "b2", "b3"):
        assert sum(both.values[value]) == sum(a.values[value]) + sum(b.values[value])
        assert both.values[value][5] == a.values[value][5] + b.values[value][0]
    assert failover.error_window(both) == failover.error_window(a), "the redispatch share failed nothing"


def test_connections_and_per_agent_counts_are_kept_by_value_name(shares):
    first, second = shares
    a, b = failover.Outcomes.from_stored(first), failover.Outcomes.from_stored(second)
    kept = merged_outcomes(first, second)
    both = failover.Outcomes.from_stored(kept)
    assert len(both.connections) == len(a.connections) + len(b.connections) == 100
    assert kept["connections_total"] == first["connections_total"] + second["connections_total"]
    row = b.connections[0]
    assert both.connections[50] == [row[b.value_order.index(v)] for v in both.value_order]
    assert kept["sources"] == {"agent-1": {v: sum(a.values[v]) for v in a.value_order},
                               "agent-2": {v: sum(b.values[v]) for v in b.value_order}}
    one = merge([ShareOutcome(agent="agent-1", extra={"outcomes": first}), ShareOutcome(agent="agent-2")], {}, 8.0)
    assert "outcomes" not in one.extra, "a share without outcomes: no merged outcomes"


def test_roundrobin_keeps_no_source_on_one_backend(shares):
    first, second = shares
    kept = merged_outcomes(first, second)
    both = failover.Outcomes.from_stored(kept)
    figure = failover.distribution(both, kept["sources"])
    print(f"\nfigures: spread {({v: round(s['share'], 4) for v, s in figure['spread'].items()})}, "
          f"by source {figure['persistence_by_source']}")
    assert figure["header"] == "X-Backend" and figure["values_used"] == 3 and figure["answered"] == sum(both.series("ok"))
    assert figure["spread"]["b1"]["share"] == figure["spread"]["b1"]["requests"] / figure["answered"]
    assert figure["spread"]["b2"]["share"] < 0.25, "b2 was stopped for part of both runs"
    by_source = figure["persistence_by_source"]
    assert by_source["sources"] == 2 and by_source["all_on_one"] == 0 and by_source["mean_share"] < 0.5
    assert figure["persistence"]["connections"] == 100 and figure["persistence"]["all_on_one"] == 0


def test_persistence_per_source():
    sources = {"agent-1": {"b1": 500}, "agent-2": {"b3": 400}, "agent-3": {"b1": 99, "b2": 1}, "agent-4": {}}
    found = failover.persistence_by_source(sources)
    assert {k: v for k, v in found.items() if k != "per_source"} == {
        "sources": 3, "mean_share": pytest.approx(999 / 1000), "min_share": 0.99, "all_on_one": 2}
    assert found["per_source"]["agent-3"] == {"value": "b1", "share": 0.99, "requests": 100}
    assert found["per_source"]["agent-2"] == {"value": "b3", "share": 1.0, "requests": 400}
    assert failover.persistence_by_source({"agent-1": {}}) is None


def test_a_point_without_failure_events_gets_its_distribution(fixtures_dir):
    extra = {"outcomes": stored(fixtures_dir, ROUNDROBIN)}
    assert service.file(Fired(), extra, campaign_id=1, point_id=1, agent="local") == []
    assert extra["distribution"]["values_used"] == 3 and extra["distribution"]["persistence_by_source"] is None
    assert extra["distribution"]["answered"] == sum(failover.Outcomes.from_stored(extra["outcomes"]).series("ok"))
    unnamed = {"outcomes": {**extra["outcomes"], "header": None}}
    service.file(Fired(), unnamed, campaign_id=1, point_id=1, agent="local")
    assert "distribution" not in unnamed, "outcomes without a counted header: no distribution"
