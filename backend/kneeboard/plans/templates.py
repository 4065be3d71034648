"""Built-in plan templates, stored as JSON files beside this module."""

from __future__ import annotations

import json
from importlib import resources

from kneeboard.errors import NotFound
from kneeboard.plans.schemas import PlanTemplate


def list_templates() -> list[PlanTemplate]:
    """Every built-in template, by id."""
    folder = resources.files("kneeboard.plans") / "templates"
    found = [PlanTemplate(**json.loads(f.read_text())) for f in folder.iterdir() if f.name.endswith(".json")]
    return sorted(found, key=lambda t: t.id)


def get_template(template_id: str) -> PlanTemplate:
    """One template, or NotFound."""
    for template in list_templates():
        if template.id == template_id:
            return template
    raise NotFound("template", template_id)
