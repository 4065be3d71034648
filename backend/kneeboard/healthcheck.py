"""`python -m kneeboard.healthcheck api|worker|agent URL`: a container's health check (docker-compose.yml); exit 0
when healthy, 1 with the reason otherwise.

- api: `GET /api/v1/health` on this container answers 200.
- worker: this worker ($AGENT_NAME) heartbeated into the database within 3 heartbeats.
- agent: a `kneeboard agent` process runs here and the API at URL accepts its credential ($KB_AGENT_TOKEN).
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import httpx

from kneeboard.config import get_settings

TIMEOUT_S = 5


def check_api(url: str = "http://127.0.0.1:8000") -> str | None:
    """None when the API answers its health route, else why not."""
    try:
        answer = httpx.get(f"{url}/api/v1/health", timeout=TIMEOUT_S)
    except httpx.HTTPError as exc:
        return f"the API does not answer: {exc}"
    return None if answer.status_code == 200 else f"GET /api/v1/health answered {answer.status_code}"


def check_worker() -> str | None:
    """None when this worker's last heartbeat is recent, else why not."""
    from kneeboard.agents.models import Agent
    from kneeboard.db import session_scope, utcnow

    settings = get_settings()
    with session_scope() as session:
        agent = session.get(Agent, settings.agent_name)
        if agent is None:
            return f"worker {settings.agent_name!r} has not registered"
        age = utcnow() - agent.last_heartbeat
    return None if age < timedelta(seconds=3 * settings.heartbeat_s) else f"last heartbeat {age.total_seconds():.0f} s ago"


def _agent_running() -> bool:
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
        except OSError:
            continue
        if any(part.endswith(b"kneeboard") for part in argv[:3]) and b"agent" in argv:
            return True
    return False


def check_agent(url: str) -> str | None:
    """None when the agent process runs and the API accepts its credential, else why not."""
    if not _agent_running():
        return "no `kneeboard agent` process runs"
    token = os.environ.get("KB_AGENT_TOKEN", "")
    try:
        answer = httpx.get(f"{url}/api/v1/policy/targets", headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT_S)
    except httpx.HTTPError as exc:
        return f"the API at {url} does not answer: {exc}"
    return None if answer.status_code == 200 else f"the API refuses the agent's credential ({answer.status_code})"


def main(argv: list[str]) -> int:
    """Run the named check; print the reason and exit 1 when unhealthy."""
    if not argv or argv[0] not in {"api", "worker", "agent"} or (argv[0] == "agent") != (len(argv) == 2):
        print("usage: python -m kneeboard.healthcheck api | worker | agent URL", file=sys.stderr)
        return 2
    why = check_api() if argv[0] == "api" else check_worker() if argv[0] == "worker" else check_agent(argv[1])
    if why:
        print(why, file=sys.stderr)
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
