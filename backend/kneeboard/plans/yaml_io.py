"""Plans as YAML: the same fields as the JSON shape, for files kept beside code."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError
from fastapi.exceptions import RequestValidationError

from kneeboard.errors import invalid
from kneeboard.plans.schemas import AnyPlan, PlanBody

_PLAN = TypeAdapter(PlanBody)
STORED_ONLY = ("id", "created_at", "updated_at")


def to_yaml(body: dict[str, Any]) -> str:
    """A stored plan's shape as YAML (ids and times left out), keys in the plan's own order."""
    return yaml.safe_dump({k: v for k, v in body.items() if k not in STORED_ONLY}, sort_keys=False, allow_unicode=True)


def from_yaml(text: str) -> AnyPlan:
    """Parse and validate a YAML plan; a 422 names the line and column, or the field, of the first problem."""
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise invalid((), f"not YAML: {where}{exc.problem}") from None
    if not isinstance(data, dict):
        raise invalid((), "a plan in YAML is a mapping (name, tool, target_id, phases, …)")
    try:
        return _PLAN.validate_python(data)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]) from None
