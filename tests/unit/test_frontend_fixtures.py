"""The frontend's fixtures are what the backend gives: GET /tools, monitor samples and the lab's actions (regenerate with
`.venv/bin/python scripts/frontend_fixtures.py`)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "frontend" / "src" / "tools" / "__fixtures__"
MAKE = runpy.run_path(str(ROOT / "scripts" / "frontend_fixtures.py"))


def test_tools_fixture_is_the_registry_answer():
    """tools.json is GET /api/v1/tools as the registry answers it now (a tool, a metric or a bound changed: regenerate)."""
    assert json.loads((FIXTURES / "tools.json").read_text()) == MAKE["tools"](), "run scripts/frontend_fixtures.py"


def test_monitor_samples_fixture_is_what_the_parsers_make():
    """monitor-samples.json is the exporter and mpstat parsers' samples of the captured output."""
    stored = json.loads((FIXTURES / "monitor-samples.json").read_text())
    assert stored == MAKE["monitor_samples"](), "run scripts/frontend_fixtures.py"


def test_lab_actions_fixture_is_the_registry_answer():
    """lab-actions.json is GET /api/v1/lab's `actions` as the registry lists them now (an action added or changed: regenerate)."""
    assert json.loads((FIXTURES / "lab-actions.json").read_text()) == MAKE["lab_actions"](), "run scripts/frontend_fixtures.py"
