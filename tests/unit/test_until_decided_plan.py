"""Repeat until decided as a plan option: validated, and its most passes bound the points caps count."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from kneeboard.plans.expand import count_points, expand
from kneeboard.plans.schemas import PlanBody

PLAN = TypeAdapter(PlanBody)
VARIANTS = [{"label": "minimal", "set": {}}, {"label": "log", "set": {}}]


def plan(**overrides):
    body = {"name": "p", "tool": "dnsperf", "target_id": 1, "variants": VARIANTS, "repeat": 2,
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 500, "duration_s": 4}],
            "until_decided": {"metrics": ["server_cost", "latency_p99_ms"], "max_passes": 12}}  # fmt: skip
    body.update(overrides)
    return PLAN.validate_python(body)


def test_the_most_passes_bound_the_points_while_the_first_passes_expand():
    made = plan()
    assert len(expand(made)) == 2 * 2  # repeat's passes run first, the worker adds the rest while undecided
    assert count_points(made) == 2 * 12
    assert made.until_decided.margin_pct == 5.0


@pytest.mark.parametrize(("change", "said"), [
    ({"variants": []}, "needs two variants"),
    ({"until_decided": {"metrics": ["no_such"], "max_passes": 5}}, r"until_decided\.metrics\[0\]: dnsperf measures no no_such"),
    ({"until_decided": {"metrics": ["server_cost"], "max_passes": 1000}}, "MAX_REPEAT"),
    ({"until_decided": {"metrics": ["server_cost"], "max_passes": 2}, "repeat": 3}, "fewer than the 3 passes"),
    ({"until_decided": {"metrics": [], "max_passes": 5}}, "metrics"),
])  # fmt: skip
def test_an_until_decided_that_cannot_run_is_refused(change, said):
    with pytest.raises(ValidationError, match=said):
        plan(**change)


def test_the_preview_is_a_range_from_the_first_passes_to_the_most():
    from kneeboard.plans.service import preview

    shown = preview(plan())
    assert shown.point_count == 2 * 2 and shown.estimated_s == pytest.approx(shown.estimated_min_s * 12 / 2)
    assert shown.point_count_max == 2 * 12  # two variants, one load, 12 passes at most
    fixed = preview(plan(until_decided=None))
    assert fixed.estimated_s == fixed.estimated_min_s and fixed.point_count_max == fixed.point_count
