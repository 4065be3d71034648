"""Shared fixtures. `stack` starts the real services once per session: Postgres, Redis,
a DNS server, a Celery worker and the API; unit tests do not ask for it."""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]
FIXTURES = ROOT / "tests" / "fixtures" / "tool-output"

from tests.support import services  # noqa: E402
from kneeboard.extensions import register_all  # noqa: E402

register_all()  # the events catalogue and the after-settle hooks, filled as at every process's start


@dataclass
class Stack:
    """The running services and a client for the API."""

    api: httpx.Client
    api_url: str
    env: dict[str, str]
    dns_host: str
    dns_port: int
    tmp: Path
    admin_token: str = ""
    procs: dict = field(default_factory=dict)  # "postgres", "redis": processes a crash-safety test may restart
    started: list = field(default_factory=list)  # everything the fixture ends, restarted processes included

    @property
    def auth(self) -> dict[str, str]:
        """The admin bearer header `api` carries, for clients made elsewhere (httpx.stream, node)."""
        return {"Authorization": f"Bearer {self.admin_token}"}


# The background lane (scripts/test-python.sh runs it under SCHED_IDLE beside the rest, each lane with its own stack): the
# browser tests, and tests that mostly wait (a lease to lapse, a minute boundary, an outage) with no figure a busy
# machine could spoil. Neither lane may count processes or change state that the other owns (the lab stays in the other).
BACKGROUND = ("tests/e2e/", "tests/integration/test_schedules.py", "tests/integration/test_crash_safety.py",
              "tests/integration/test_fencing.py", "tests/integration/test_agent_lock.py",
              "tests/integration/test_promql.py",  # waits on Prometheus' scrapes
              "tests/integration/test_grafana_links_in_answers.py", "tests/integration/test_cpu_profile_report.py",
              "tests/integration/test_observer.py",
              # no lab and no tight timing: here to keep the foreground lane, which holds the lab's tests, within budget
              "tests/integration/test_live_streams.py", "tests/integration/test_samples_kept.py", "tests/integration/test_exports.py",
              "tests/integration/test_compare_verdicts.py", "tests/integration/test_migrations.py", "tests/integration/test_audit.py",
              "tests/integration/test_auth.py", "tests/integration/test_event_webhook.py", "tests/integration/test_campaign_run.py",
              "tests/integration/test_device_campaign.py", "tests/integration/test_up.py",
              # the API's answers and documents, no figure and no deadline of their own (not the Grafana dashboard's:
              # its network panel reads the host's interfaces, and this lane's namespace has only loopback)
              "tests/integration/test_public_documents.py",
              "tests/integration/test_conclusion_exports.py", "tests/integration/test_comparison_profiles_shared.py",
              "tests/integration/test_ui_assets.py", "tests/integration/test_compare_next_step.py",
              "tests/integration/test_caps_every_path.py", "tests/integration/test_token_scope.py", "tests/integration/test_import.py",
              "tests/integration/test_list_sort.py", "tests/integration/test_export_columns.py",
              "tests/integration/test_tool_contract_api.py", "tests/integration/test_shares.py", "tests/integration/test_validation.py",
              "tests/integration/test_plan_yaml.py", "tests/integration/test_params_property.py",
              # pure functions and parsers of captured output: no stack, no lab, no clock
              "tests/unit/")  # fmt: skip
# ...but these files of BACKGROUND's folders time something (a deadline, a wait, a process's exit) or let a clock run:
# a starved lane would spoil them
FOREGROUND = tuple(f"tests/unit/test_{name}.py" for name in (
    "drain", "exporter_fetch", "host_sharing", "lab_bind_files", "lab_coredns_files", "observer_in_force", "point_events_told",
    "process_groups", "runner", "search_algorithm", "search_estimate", "tool_process"))  # fmt: skip


def lane_of(item) -> str:
    """The lane a test runs in: "background" (BACKGROUND's, under SCHED_IDLE), "lab" (a test that needs the machine's one
    lab or the host's own network: the `lab` fixture, or the `lab` marker), else "loopback" (the suite's own stack and
    servers on loopback; as root, in a network namespace of its own)."""
    if item.nodeid.startswith(BACKGROUND) and not item.nodeid.startswith(FOREGROUND) and item.get_closest_marker("foreground") is None:
        return "background"
    return "lab" if "lab_session" in getattr(item, "fixturenames", ()) or item.get_closest_marker("lab") else "loopback"


def pytest_collection_modifyitems(config, items) -> None:
    """With KB_TEST_LANE set keep only that lane's tests (lane_of); "foreground" is the lab's and loopback's together."""
    lane = os.environ.get("KB_TEST_LANE")
    if lane not in {"background", "foreground", "lab", "loopback"}:
        return
    kept, dropped = [], []
    for item in items:
        own = lane_of(item)
        (kept if own == lane or (lane == "foreground" and own != "background") else dropped).append(item)
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The real tool output captured on Debian 12 (tests/fixtures/tool-output, copied from shared/)."""
    return FIXTURES


def _forget_cached_settings() -> None:
    from kneeboard import db
    from kneeboard import live
    from kneeboard.config import get_settings

    for cached in (get_settings, db.get_engine, db.get_sessionmaker, live._client):
        cached.cache_clear()


@pytest.fixture(scope="session")
def stack():
    """Start everything once; end only what was started here, by PID."""
    from kneeboard.lab.dns import start_unbound

    tmp = Path(tempfile.mkdtemp(prefix="kb-test-"))
    admin_token = secrets.token_urlsafe(32)
    tmp.chmod(0o755)
    started, procs = [], {}
    try:
        if os.environ.get("KB_TEST_DATABASE_URL"):
            database_url = os.environ["KB_TEST_DATABASE_URL"]
        else:
            procs["postgres"], database_url = services.start_postgres(tmp / "pg")
            started.append(procs["postgres"])
        procs["redis"], redis_url = services.start_redis(tmp, password=secrets.token_urlsafe(16))  # as `make up`'s: agents must never see it
        started.append(procs["redis"])
        dns_port = services.free_port()
        started.append(start_unbound("127.0.0.1", dns_port, tmp / "dns"))
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "AGENT_NAME": "local",
            "WORKDIR": str(tmp / "work"),
            "GRACE_S": "5",
            "REDISPATCH_AFTER_S": "8",  # the broker-restart test waits for a lost message to be sent again
            "SCHEDULE_TICK_S": "3",  # the schedule test waits for a tick
            "KB_ADMIN_TOKEN": admin_token,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "backend"), os.environ.get("PYTHONPATH", "")]),
        }
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "AGENT_NAME", "WORKDIR")})
        _forget_cached_settings()  # unit tests earlier in this process cached the defaults (SQLite)
        services.migrate(env)
        started.append(services.start_worker(env, tmp))
        started.append(services.start_beat(env, tmp))
        api_proc, api_url = services.start_api(env, tmp)
        started.append(api_proc)
        with httpx.Client(base_url=api_url, timeout=30, headers={"Authorization": f"Bearer {admin_token}"}) as client:
            services.wait_for_agent(client, "local")
            yield Stack(client, api_url, env, "127.0.0.1", dns_port, tmp, admin_token, procs, started)
    finally:
        services.stop_all(started)
        if not os.environ.get("KB_KEEP_TMP"):
            shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture()
def dns_target(stack) -> dict:
    """A registered dns target pointing at the suite's unbound."""
    import uuid

    body = {"name": f"unbound-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port, "tags": ["test"]}
    response = stack.api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()
