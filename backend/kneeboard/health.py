"""GET /api/v1/health: version, database, broker, agents seen."""

from __future__ import annotations

import logging
import time
from functools import lru_cache

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
log = logging.getLogger(__name__)
LAB_EVERY_S = 5.0


class Health(BaseModel):
    """Whether Kneeboard's parts answer."""

    version: str
    database: str
    broker: str
    agents: list[str]
    lab: dict | None = None


@lru_cache
def _broker() -> redis.Redis:
    return redis.Redis.from_url(get_settings().redis_url, socket_timeout=1, socket_connect_timeout=1)


_lab_seen: dict[str, float | bool] = {"at": -1e9, "present": False}


def _lab_present() -> bool:
    """Whether the lab is up, read at most every LAB_EVERY_S (it runs `ip`: too slow for every health poll)."""
    if time.monotonic() - _lab_seen["at"] > LAB_EVERY_S:
        _lab_seen.update(at=time.monotonic(), present=lab_status(probe=False).present)
    return bool(_lab_seen["present"])


@router.get("/health", response_model=Health)
def health(session: SessionDep):
    """Version, database and broker state, the agents alive and whether the lab is up: public, so no addresses,
    ports or error texts (those are in the log, and the lab's detail at GET /api/v1/lab for signed-in users)."""
    try:
        session.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:  # noqa: BLE001 - the details (addresses) go to the log, not to a public answer
        log.warning("health: database unreachable: %s", exc)
        database = "error"
    try:
        _broker().ping()
        broker = "ok"
    except redis.RedisError as exc:
        log.warning("health: broker unreachable: %s", exc)
        broker = "error"
    agents = [a["name"] for a in list_agents(session=session) if a["alive"]]
    return {"version": __version__, "database": database, "broker": broker, "agents": agents, "lab": {"present": _lab_present()}}
