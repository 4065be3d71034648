"""The repository's own promises: compose file valid, OpenAPI document current, settings documented."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

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
def test_compose_file_is_valid_and_keeps_the_broker_private():
    argv = ["docker-compose", "config"] if shutil.which("docker-compose") else ["docker", "compose", "config"]
    env = {**os.environ, "REDIS_PASSWORD": "redis-secret", "POSTGRES_PASSWORD": "pg-secret", "KB_AGENT_TOKEN": "kba_x"}
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    services = yaml.safe_load(done.stdout)["services"]
    assert "ports" not in services["redis"] and "redis-secret" in " ".join(services["redis"]["command"])
    assert set(services) >= {"api", "worker", "beat", "agent"}
    agent = yaml.dump(services["agent"])
    assert "redis" not in agent and "pg-secret" not in agent and "DATABASE_URL" not in agent and "kba_x" in agent
    missing = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={k: v for k, v in env.items() if k != "REDIS_PASSWORD"})
    assert missing.returncode != 0 and "REDIS_PASSWORD" in missing.stderr
