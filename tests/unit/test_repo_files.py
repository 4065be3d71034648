"""The repository's own promises: compose file valid, OpenAPI document current, settings documented."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kneeboard.config import Settings
from kneeboard.main import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_openapi_document_is_current():
    """frontend/openapi.json is what the backend serves (regenerate with `make api-types`)."""
    committed = json.loads((ROOT / "frontend" / "openapi.json").read_text())
    assert committed == json.loads(json.dumps(create_app().openapi())), "run `make api-types`"


def test_every_setting_is_in_env_example():
    documented = set(re.findall(r"^#?\s*([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert {name.upper() for name in Settings.model_fields} <= documented


@pytest.mark.skipif(not (shutil.which("docker-compose") or shutil.which("docker")), reason="no compose client")
def test_compose_file_is_valid():
    argv = ["docker-compose", "config", "-q"] if shutil.which("docker-compose") else ["docker", "compose", "config", "-q"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
