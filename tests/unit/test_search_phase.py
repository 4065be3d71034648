"""The `search` phase in plans: its shape, the tools it fits, what it expands to (its first trial, the top of its range)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from kneeboard.plans.expand import expand
from kneeboard.plans.schemas import PlanBody

PLAN = TypeAdapter(PlanBody)
SEARCH = {"kind": "search", "concurrency": 32, "low": 100, "high": 2000, "duration_s": 4, "resolution_pct": 1,
          "criteria": [{"metric": "latency_p99_ms", "limit": 10}, {"metric": "loss_pct", "limit": 1}]}


def plan(tool="kbhttp", params=None, **phase):
    body = {"name": "p", "tool": tool, "target_id": 1, "phases": [{**SEARCH, **phase}]}
    if params is not None:
        body["params"] = params
    return PLAN.validate_python(body)


@pytest.mark.parametrize("tool,params", [("kbhttp", None), ("dnsperf", None), ("iperf3", {"protocol": "udp"}), ("devsim", None)])
def test_every_tool_with_a_rate_takes_a_search_expanded_to_the_top_of_its_range(tool, params):
    extra = {"duration_s": 4, "criteria": [{"metric": "loss_pct", "limit": 1}]}
    points = expand(plan(tool, params, **extra))
    assert [(p.phase, p.concurrency, p.offered_rate) for p in points] == [("search", 32, 2000)]  # devsim too: the range is a total


@pytest.mark.parametrize("tool,params,message", [
    ("wrk", None, "phases[0].kind: a search phase needs a tool with an offered rate"),
    ("iperf3", {"protocol": "tcp"}, "phases[0].kind: a search phase needs"),
])  # fmt: skip
def test_a_search_needs_a_rate_and_a_loss(tool, params, message):
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        plan(tool, params, criteria=[{"metric": "loss_pct", "limit": 1}])


@pytest.mark.parametrize("change,loc_end", [
    ({"high": 50}, "search"),  # high ≤ low
    ({"criteria": []}, "criteria"),
    ({"criteria": [{"metric": "latency_p42_ms", "limit": 1}]}, "metric"),
    ({"criteria": [{"metric": "loss_pct", "limit": 150}]}, "criteria"),
    ({"resolution_pct": 0}, "resolution_pct"),
    ({"low": -1}, "low"),
    ({"high": 1e12}, "high"),  # MAX_RATE
    ({"min_duration_s": 10}, "search"),
])  # fmt: skip
def test_bad_values_name_their_field(change, loc_end):
    with pytest.raises(ValidationError) as raised:
        plan(**change)
    assert any(loc_end in err["loc"] for err in raised.value.errors()), raised.value.errors()


def test_a_criterion_the_tool_does_not_measure_is_named():
    with pytest.raises(ValidationError, match=r"phases\[0\]\.criteria\[0\]\.metric: iperf3 does not measure latency_p99_ms"):
        plan("iperf3", {"protocol": "udp"}, criteria=[{"metric": "latency_p99_ms", "limit": 5}])


def test_the_find_capacity_template_is_a_search_for_p99_at_most_10_ms():
    from kneeboard.plans.templates import get_template

    template = get_template("http-find-capacity-p99")
    assert template.title == "Find capacity at p99 ≤ 10 ms"
    body = PLAN.validate_python({**template.plan, "target_id": 1})
    (phase,) = body.phases
    assert phase.kind == "search" and phase.criteria[0].metric == "latency_p99_ms" and phase.criteria[0].limit == 10


def test_role_caps_are_checked_against_the_top_of_the_range_and_name_high():
    from kneeboard.errors import PolicyRefused
    from kneeboard.plans.caps import check_caps
    from kneeboard.policy.schemas import RoleCaps

    points = expand(plan())
    check_caps(points, RoleCaps(max_rate=2000, max_duration_s=4), role="operator", tool="kbhttp")  # the top itself is allowed
    with pytest.raises(PolicyRefused) as refused:
        check_caps(points, RoleCaps(max_rate=1999), role="operator", tool="kbhttp")
    assert refused.value.errors[0][0] == ("kbhttp", "phases", 0, "high")
    with pytest.raises(PolicyRefused) as refused:
        check_caps(points, RoleCaps(max_duration_s=3), role="operator", tool="kbhttp")  # the longest trial
    assert refused.value.errors[0][0] == ("kbhttp", "phases", 0, "duration_s")
