"""A template's quick look: every phase and variant kept, repetitions and swept loads thinned to at most 6 points of 2 s."""

from __future__ import annotations

import pytest

from kneeboard.plans.expand import count_points
from kneeboard.plans.schemas import PlanBody
from kneeboard.plans.templates import QUICK_POINTS, get_template, list_templates, quick_look
from pydantic import TypeAdapter

PLAN = TypeAdapter(PlanBody)


@pytest.mark.parametrize("template", list_templates(), ids=lambda t: t.id)
def test_every_templates_quick_look_is_a_valid_plan_of_at_most_six_short_points(template):
    campaigns = max(1, len(template.lab_targets))
    quick = PLAN.validate_python({**quick_look(template.plan, campaigns), "target_id": 1})
    assert count_points(quick) * campaigns <= QUICK_POINTS and all(p.duration_s <= 2 for p in quick.phases) and quick.pause_s == 0
    assert [p.kind for p in quick.phases] == [p["kind"] for p in template.plan["phases"]][: len(quick.phases)]
    assert [v.label for v in quick.variants] == [v["label"] for v in template.plan.get("variants") or []]


def test_sweeps_are_thinned_from_both_ends_and_repetitions_kept_where_the_budget_allows():
    seed000 = quick_look(get_template("dns-adguard-seed000").plan)
    assert [p["kind"] for p in seed000["phases"]] == ["baseline", "scalability", "saturation", "stability", "fractions"]
    assert seed000["phases"][1]["concurrency"] == [8] and seed000["phases"][2]["rate"] == [2000, 50000]
    assert seed000["phases"][3]["rate"]["phase"] == seed000["phases"][2]["label"] and seed000["phases"][4]["fractions"] == [0.5]
    logging = quick_look(get_template("dns-coredns-logging-seed001").plan)
    # 2 variants × (the sweep's ends + the matched hold at half the minimal configuration's ceiling, one absolute rate)
    assert logging["repeat"] == 1 and logging["phases"][0]["rate"] == [5000, 30000] and logging["derive"] == "reference"
    assert logging["phases"][1]["rate"] == {"phase": "sweep", "of": "ceiling", "fraction": 0.5}
    ranged = quick_look({"name": "r", "phases": [{"kind": "saturation", "concurrency": 1, "duration_s": 9,
                                                  "rate": {"start": 100, "stop": 1000, "step": 100}}]})  # fmt: skip
    assert ranged["phases"][0]["rate"] == [100, 300, 500, 600, 800, 1000] and ranged["name"] == "r (quick look)"
    assert get_template("dns-adguard-seed000", quick=True).plan == seed000
    balancers = get_template("http-balancers-seed002", quick=True).plan  # three campaigns: 2 points each
    assert balancers["repeat"] == 2 and balancers["phases"][0]["rate"] == [8000]
