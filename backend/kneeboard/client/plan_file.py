"""Reading a plan file for `kneeboard run`: thresholds taken out, and an identical stored plan found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from kneeboard.client.http import Client



class PlanFileError(Exception):
    """The file cannot be read or is not a YAML mapping."""


def read(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The plan document without its `thresholds:` key, and those thresholds."""
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PlanFileError(f"{path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise PlanFileError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(document, dict):
        raise PlanFileError(f"{path}: a plan is a YAML mapping (name, tool, target_id, phases, …)")
    thresholds = document.pop("thresholds", None) or []
    if not isinstance(thresholds, list) or not all(isinstance(t, str) for t in thresholds):
        raise PlanFileError(f"{path}: thresholds is a list of strings such as 'latency_avg_ms<5'")
    return document, thresholds


def _normalised(document: dict[str, Any]) -> dict[str, Any] | None:
    """The plan as the server stores it (defaults filled in), or None when it does not validate here."""
    try:
        from pydantic import TypeAdapter, ValidationError

        from kneeboard.plans.schemas import PlanBody

        return TypeAdapter(PlanBody).validate_python(document).model_dump(mode="json")
    except (ImportError, ValidationError, ValueError):
        return None


def store(client: Client, document: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """An identical stored plan (True) or a new one imported as YAML (False)."""
    from kneeboard.plans.yaml_io import STORED_ONLY

    wanted = _normalised(document)
    if wanted is not None:
        for plan in client.get("/plans"):
            if {k: v for k, v in plan.items() if k not in STORED_ONLY} == wanted:
                return plan, True
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    return client.post("/plans/import.yaml", content=body.encode(), headers={"Content-Type": "application/yaml"}), False
