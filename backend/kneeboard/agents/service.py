"""Agent registration and heartbeats."""

from __future__ import annotations

import socket
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.agents.models import Agent
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.states import AgentStatus


def register(name: str, tools: dict[str, str | None], *, session: Session) -> Agent:
    """Create or refresh an agent with the tools and versions it found."""
    agent = session.get(Agent, name) or Agent(name=name)
    agent.hostname, agent.tools, agent.last_heartbeat = socket.gethostname(), tools, utcnow()
    session.add(agent)
    session.flush()
    return agent


def heartbeat(name: str, *, session: Session) -> None:
    """Record that an agent is alive."""
    agent = session.get(Agent, name)
    if agent is not None:
        agent.last_heartbeat = utcnow()


def is_alive(agent: Agent) -> bool:
    """Heard from within three heartbeat periods."""
    return utcnow() - as_utc(agent.last_heartbeat) < timedelta(seconds=3 * get_settings().heartbeat_s)


def list_agents(*, session: Session) -> list[dict]:
    """Every agent, with an `alive` flag."""
    agents = session.scalars(select(Agent).order_by(Agent.name))
    return [{**{c: getattr(a, c) for c in ("name", "hostname", "tools", "last_heartbeat")}, "alive": is_alive(a),
             "status": AgentStatus.ALIVE if is_alive(a) else AgentStatus.SILENT} for a in agents]
