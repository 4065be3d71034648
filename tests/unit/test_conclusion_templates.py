"""Every template's campaign gets a conclusion whose every figure names its metric (and its rule).

Each template is expanded to its points (a search phase is run by the search algorithm) against a modelled server: it
keeps up to a capacity, its mean latency and percentiles grow with utilisation, what it cannot take is lost. The
conclusion of each variant is then read clause by clause: a clause that quotes a figure must name what it measures."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import TypeAdapter

from kneeboard.report import analyse
from kneeboard.analysis.conclusion import split_outside_parentheses
from kneeboard.analysis.searched import search_capacities
from kneeboard.plans.expand import expand
from kneeboard.plans.schemas import PlanBody
from kneeboard.search.algorithm import Trial, run
from kneeboard.search.report import search_report
from kneeboard.search.state import config_of
from kneeboard.tools.registry import adapter

TEMPLATES = sorted((Path(__file__).parents[2] / "backend" / "kneeboard" / "plans" / "templates").glob("*.json"))
# what a clause may name a figure by: a metric, or the rule or law that produced it
NAMES = re.compile(r"latency|achieved|offered|throughput|capacity|ceiling|loss|efficiency|requests in flight|concurrency|"
                   r"Kneedle|rate|σ|R²|baseline|N\*|samples|repetitions", re.I)
FIGURE = re.compile(r"\d")


def _measure(offered: float | None, concurrency: int, capacity: float, percentiles: bool) -> dict:
    """The modelled server at one load: keeps up to `capacity`, queues near it, loses the rest."""
    load = offered if offered is not None else concurrency * capacity / 8
    achieved = min(load, capacity)
    utilisation = min(load / capacity, 0.98)
    latency = 0.2 + 0.2 * utilisation / (1 - utilisation)
    metrics = {"achieved_rate": achieved, "latency_avg_ms": latency, "loss_pct": 100 * (load - achieved) / load if load else 0.0,
               "sent": load, "completed": achieved, "errors": 0.0}  # fmt: skip
    if percentiles:
        metrics |= {"latency_p50_ms": latency * 0.9, "latency_p90_ms": latency * 1.6, "latency_p99_ms": latency * 3, "latency_p999_ms": latency * 5}
    return metrics


def _campaign(template: Path) -> tuple[dict, list[dict], list[dict], str]:
    plan = TypeAdapter(PlanBody).validate_python({**json.loads(template.read_text())["plan"], "target_id": 1})
    tool = adapter(plan.tool)
    percentiles = any(m.name == "latency_p99_ms" for m in tool.all_metrics())
    loads = [p.offered_rate for p in expand(plan) if p.offered_rate]
    capacity = 0.6 * max(loads) if loads else 10_000.0
    points = [{"phase": p.phase, "concurrency": p.concurrency, "offered_rate": p.offered_rate, "repeat": p.repeat,
               "variant": p.variant, "status": "completed", **_measure(p.offered_rate, p.concurrency, capacity, percentiles)}
              for p in expand(plan) if p.phase != "search"]  # fmt: skip
    stored = []
    for index, phase in enumerate(plan.phases):
        if phase.kind == "search":
            config = config_of(phase.model_dump())
            _, trials = run(config, lambda t: {**_measure(t.rate, phase.concurrency, capacity, percentiles), "offered_rate": t.rate})
            stored += [SimpleNamespace(seq=i, phase_index=index, variant=None, repeat=0, offered_rate=t.rate, duration_s=t.duration_s,
                                       metrics=r, status="completed", extra={}, started_at=None, ended_at=None)
                       for i, (t, r) in enumerate(trials)]  # fmt: skip
    searches = search_report([p.model_dump() for p in plan.phases], stored, tool.rate_unit) if stored else []
    points += [{"phase": "search", "concurrency": s.concurrency if hasattr(s, "concurrency") else 1, "offered_rate": s.offered_rate,
                "repeat": 0, "variant": None, "status": "completed", **s.metrics} for s in stored]  # fmt: skip
    return plan.model_dump(), points, search_capacities(searches, tool.rate_unit), tool.rate_unit


def _clauses(text: str) -> list[str]:
    """Sentences split at their semicolons outside parentheses: a parenthesised list ("the higher loads achieved less
    (31,817 qps at 40,000 qps; …)") belongs to the clause that names it."""
    return [c for sentence in re.split(r"(?<=[.!])\s+(?=[A-Z])", text) for c in split_outside_parentheses(sentence, "; ") if c.strip()]


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.stem for t in TEMPLATES])
def test_the_conclusion_names_the_metric_of_every_figure(template):
    plan, points, searched, unit = _campaign(template)
    variants = sorted({p["variant"] for p in points}, key=str) or [None]
    slo = plan["slo"]
    for variant in variants:
        mine = [p for p in points if p["variant"] == variant]
        result = analyse(mine, unit=unit, slo_ms=slo["limit_ms"], slo_metric=slo["metric"], slo_source="plan", searched=searched)
        text = result["conclusion"]
        assert text, template.stem
        for clause in _clauses(text):
            if FIGURE.search(clause):
                assert NAMES.search(clause), f"{template.stem}: a figure without its metric: {clause!r}"
        if result["capacity"]:
            name = {"latency_avg_ms": "mean latency", "latency_p99_ms": "p99 latency"}[result["capacity"]["metric"]]
            assert f"Capacity at {name} ≤ {slo['limit_ms']:g} ms (the plan's SLO" in text, template.stem
        for found in searched:
            assert f"capacity at {found['label']}: " in text, template.stem
        if result["knee"]:
            assert f"Knee ({result['knee']['rule_text']})" in text
        if result["zones"]:
            assert "Operating ranges by mean latency" in text
        if result["ceiling"]:
            assert "Ceiling (highest mean achieved rate" in text


def test_a_search_template_leads_with_what_the_search_found():
    template = next(t for t in TEMPLATES if t.stem == "http-find-capacity-p99")
    plan, points, searched, unit = _campaign(template)
    text = analyse(points, unit=unit, searched=searched)["conclusion"]
    assert text.startswith("The capacity search found (one run, each criterion searched alone) capacity at p99 latency ≤ 10 ms: ")
    assert "capacity at loss ≤ 1 %: " in text
    assert [s["label"] for s in searched] == ["p99 latency ≤ 10 ms", "loss ≤ 1 %"]


def test_the_checker_catches_a_bare_figure():
    assert not NAMES.search("stay below about 14,611 q/s")
    assert NAMES.search("stay below about 14,611 q/s offered")
