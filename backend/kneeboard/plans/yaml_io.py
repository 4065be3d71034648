"""Plans as YAML: the same fields as the JSON shape, for files kept beside code."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from kneeboard import safe_yaml
from kneeboard.config import get_settings
from kneeboard.errors import Invalid, invalid
from kneeboard.plans.schemas import AnyPlan, PlanBody

_PLAN = TypeAdapter(PlanBody)
STORED_ONLY = ("id", "created_at", "updated_at", "baseline_campaign_id")  # stored beside a plan, not part of it


def to_yaml(body: dict[str, Any]) -> str:
    """A stored plan's shape as YAML (ids and times left out), keys in the plan's own order."""
    return yaml.safe_dump({k: v for k, v in body.items() if k not in STORED_ONLY}, sort_keys=False, allow_unicode=True)


def from_yaml(raw: bytes | str) -> AnyPlan:
    """Parse (safely, within MAX_YAML_BYTES and kneeboard.safe_yaml's limits) and validate a YAML plan;
    a 422 names the line and column, or the field, of the first problem. Call it off the event loop."""
    data = safe_yaml.load(raw, max_bytes=get_settings().max_yaml_bytes)
    if not isinstance(data, dict):
        raise invalid((), "a plan in YAML is a mapping (name, tool, target_id, phases, …)")
    try:
        return _PLAN.validate_python(data)
    except ValidationError as exc:
        errors = [(tuple(e["loc"]), e["msg"]) for e in exc.errors(include_url=False)]
        raise Invalid(*errors[0], more=errors[1:]) from None
