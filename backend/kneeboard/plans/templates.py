"""Built-in plan templates, stored as JSON files beside this module, and a template's quick look."""

from __future__ import annotations

import json
from importlib import resources

from kneeboard.errors import NotFound
from kneeboard.plans.phases import RateRange
from kneeboard.plans.schemas import PlanTemplate

QUICK_POINTS = 6  # a quick look runs at most this many points…
QUICK_DURATION_S = 2.0  # …of at most this long each, with no pause between them
_SWEPT = {"scalability": "concurrency", "saturation": "rate", "fractions": "fractions"}  # the list a phase sweeps, thinned by a quick look (a custom
# phase's grid is kept whole: no template has one)


def list_templates() -> list[PlanTemplate]:
    """Every built-in template, by id."""
    folder = resources.files("kneeboard.plans") / "templates"
    found = [PlanTemplate(**json.loads(f.read_text())) for f in folder.iterdir() if f.name.endswith(".json")]
    return sorted(found, key=lambda t: t.id)


def get_template(template_id: str, quick: bool = False) -> PlanTemplate:
    """One template (its quick look when `quick`), or NotFound."""
    for template in list_templates():
        if template.id == template_id:
            if not quick:
                return template
            return template.model_copy(update={"plan": quick_look(template.plan, campaigns=max(1, len(template.lab_targets)))})
    raise NotFound("template", template_id)


def quick_look(plan: dict, campaigns: int = 1) -> dict:
    """The same method in miniature, to see that a template runs here before its full length: every phase and
    variant kept, repetitions and swept loads thinned (first, last and evenly between) to at most QUICK_POINTS points
    in all (over the `campaigns` a template of several lab targets makes) of at most QUICK_DURATION_S, no pause."""
    points = max(1, QUICK_POINTS // campaigns)
    variants = max(1, len(plan.get("variants") or []))
    phases = plan["phases"][: max(1, points // variants)]
    repeat = max(1, min(plan.get("repeat", 1), points // (variants * len(phases))))
    budget = max(len(phases), points // (variants * repeat))
    sizes = [len(_swept(p)) if p["kind"] in _SWEPT else _doublings(p) if p["kind"] == "ramp" else 1 for p in phases]
    keep = [1] * len(phases)
    for _ in range(budget - len(phases)):  # each spare point to the phase with the most loads per point kept
        i = max(range(len(phases)), key=lambda j: sizes[j] / keep[j] if keep[j] < sizes[j] else -1)
        if keep[i] >= sizes[i]:
            break
        keep[i] += 1
    quick = [dict(p, duration_s=min(p["duration_s"], QUICK_DURATION_S), **({"warmup_s": 0} if "warmup_s" in p else {}))
             for p in phases]
    for phase, whole in zip(quick, phases):  # events keep their place in the shortened point
        if phase.get("events"):
            phase["events"] = [{**e, "at_s": round(e["at_s"] * phase["duration_s"] / whole["duration_s"], 3)} for e in phase["events"]]
    for phase, kept in zip(quick, keep):
        if phase["kind"] in _SWEPT:
            phase[_SWEPT[phase["kind"]]] = _thin(_swept(phase), kept)
        elif phase["kind"] == "ramp":  # its first `kept` doublings
            phase["max_concurrency"] = min(phase["max_concurrency"], phase["concurrency"] * 2 ** (kept - 1))
    return {**plan, "name": f"{plan['name']} (quick look)", "phases": quick, "repeat": repeat, "pause_s": 0}


def _doublings(phase: dict) -> int:
    return (phase["max_concurrency"] // phase["concurrency"]).bit_length()


def _swept(phase: dict) -> list:
    values = phase[_SWEPT[phase["kind"]]]
    if isinstance(values, dict):
        return RateRange(**values).values()
    return values if isinstance(values, list) else [values]


def _thin(values: list, count: int) -> list:
    if count >= len(values):
        return values
    if count == 1:
        return [values[len(values) // 2]]
    return [values[round(i * (len(values) - 1) / (count - 1))] for i in range(count)]
