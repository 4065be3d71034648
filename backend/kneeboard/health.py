"""GET /api/v1/health: version, database, broker, agents seen."""

from __future__ import annotations

import redis
from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import text

from kneeboard import __version__
from kneeboard.agents.service import list_agents
from kneeboard.config import get_settings
from kneeboard.deps import SessionDep
from kneeboard.lab.namespace import status as lab_status

router = APIRouter(tags=["health"])


class Health(BaseModel):
    """Whether Kneeboard's parts answer."""

    version: str
    database: str
    broker: str
    agents: list[str]
    lab: dict | None = None


@router.get("/health", response_model=Health)
def health(session: SessionDep):
    """Version, database and broker state, and the agents alive."""
    try:
        session.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:  # noqa: BLE001
        database = f"error: {exc}"
    try:
        redis.Redis.from_url(get_settings().redis_url, socket_timeout=2).ping()
        broker = "ok"
    except redis.RedisError as exc:
        broker = f"error: {exc}"
    agents = [a["name"] for a in list_agents(session=session) if a["alive"]]
    return {"version": __version__, "database": database, "broker": broker, "agents": agents, "lab": lab_status(probe=False).to_dict()}
