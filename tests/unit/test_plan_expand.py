"""Plan validation and expansion to points, without a database."""

from __future__ import annotations

import pytest

from kneeboard.tools.registry import adapter
from pydantic import TypeAdapter, ValidationError

from kneeboard.plans.expand import START_OVERHEAD_S, estimate_seconds, expand
from kneeboard.plans.schemas import PlanBody
from kneeboard.plans.templates import list_templates

PLAN = TypeAdapter(PlanBody)


def plan(**overrides):
    body = {"name": "p", "tool": "dnsperf", "target_id": 1, "phases": [
        {"kind": "baseline", "concurrency": 1, "rate": 500, "duration_s": 30},
        {"kind": "scalability", "concurrency": [1, 2, 4], "unit_rate": 2500, "duration_s": 20},
        {"kind": "saturation", "concurrency": 20, "rate": {"start": 2000, "stop": 6000, "step": 2000}, "duration_s": 20},
        {"kind": "stability", "concurrency": 100, "rate": 11000, "duration_s": 60},
    ], "pause_s": 3}  # fmt: skip
    body.update(overrides)
    return PLAN.validate_python(body)


def test_phases_expand_in_order_with_offered_rates():
    points = expand(plan())
    assert [(p.phase, p.concurrency, p.offered_rate) for p in points] == [
        ("baseline", 1, 500), ("scalability", 1, 2500), ("scalability", 2, 5000), ("scalability", 4, 10000),
        ("saturation", 20, 2000), ("saturation", 20, 4000), ("saturation", 20, 6000), ("stability", 100, 11000),
    ]  # fmt: skip
    assert [p.seq for p in points] == list(range(8))
    assert estimate_seconds(points, 3) == pytest.approx(30 + 60 + 60 + 60 + 8 * START_OVERHEAD_S + 7 * 3)


def test_repetitions_and_variants_multiply_points():
    points = expand(plan(repeat=2, variants=[{"label": "1 queue", "set": {"lab.veth_queues": 1}}, {"label": "off", "set": {"lab.gro": False}}]))
    assert len(points) == 2 * 2 * 8
    # whole passes, variants alternating inside each: A, B, A, B
    passes = [(p.repeat, p.variant) for p in points if p.seq % 8 == 0]
    assert passes == [(0, "1 queue"), (0, "off"), (1, "1 queue"), (1, "off")]
    assert len({(p.variant, p.phase_index, p.concurrency, p.offered_rate, p.repeat) for p in points}) == len(points)


def test_seed_template_is_a_valid_plan():
    template = next(t for t in list_templates() if t.id == "dns-three-dimensions")
    body = PLAN.validate_python({**template.plan, "target_id": 1})
    points = expand(body)
    assert len(points) == 1 + 16 + 12 + 1 and points[1].offered_rate == 2500 and points[16].offered_rate == 64 * 2500


@pytest.mark.parametrize("change,loc_end", [
    ({"phases": [{"kind": "baseline", "duration_s": 0}]}, "duration_s"),
    ({"phases": [{"kind": "stability", "concurrency": 0, "duration_s": 1}]}, "concurrency"),
    ({"phases": [{"kind": "bogus", "duration_s": 1}]}, "phases"),
    ({"params": {"qtype": "BOGUS"}}, "qtype"),
    ({"params": {"names": ["-x"]}}, 0),
])  # fmt: skip
def test_bad_values_name_their_field(change, loc_end):
    with pytest.raises(ValidationError) as raised:
        plan(**change)
    assert any(loc_end in err["loc"] for err in raised.value.errors())


def test_wrk_refuses_a_rate():
    with pytest.raises(ValidationError, match="closed-loop"):
        PLAN.validate_python({"name": "w", "tool": "wrk", "target_id": 1, "phases": [{"kind": "stability", "concurrency": 10, "rate": 5, "duration_s": 1}]})


@pytest.mark.parametrize("template", list_templates(), ids=lambda t: t.id)
def test_every_template_is_valid(template):
    body = PLAN.validate_python({**template.plan, "target_id": 1})
    points = expand(body)
    assert 1 <= len(points) <= 100
    assert adapter(body.tool).check_points(body.params, points, "127.0.0.1") == []


def test_a_ramp_is_for_closed_loop_tools():
    with pytest.raises(ValidationError, match="a ramp phase is for closed-loop tools"):
        PLAN.validate_python({"name": "t", "tool": "dnsperf", "target_id": 1,
                              "phases": [{"kind": "ramp", "concurrency": 1, "max_concurrency": 4, "duration_s": 1}]})


@pytest.mark.parametrize("tool,phase,message", [
    ("iperf3", {"kind": "stability", "concurrency": 1, "duration_s": 1.5}, "iperf3 takes whole seconds"),
    ("wrk", {"kind": "stability", "concurrency": 1, "duration_s": 0.5}, "wrk takes whole seconds"),
])  # fmt: skip
def test_points_must_fit_the_tool(tool, phase, message):
    body = PLAN.validate_python({"name": "t", "tool": tool, "target_id": 1, "phases": [phase]})
    [(loc, text)] = adapter(tool).check_points(body.params, expand(body), "127.0.0.1")
    assert loc == ("phases", 0, "duration_s") and message in text


def test_wrk_accepts_a_ramp():
    body = PLAN.validate_python({"name": "w", "tool": "wrk", "target_id": 1,
                                 "phases": [{"kind": "ramp", "concurrency": 100, "max_concurrency": 800, "duration_s": 1}]})  # fmt: skip
    assert [p.concurrency for p in expand(body)] == [100, 200, 400, 800]
