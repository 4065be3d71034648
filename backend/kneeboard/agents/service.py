"""Agent rows and heartbeats: the local worker writes its own; remote agents come through the agent link (`agentlink/`)."""

from __future__ import annotations

import socket
import time
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.agents.models import Agent
from kneeboard.agents.schemas import AgentHeartbeat
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.errors import NotFound
from kneeboard.states import AgentStatus


def register(name: str, tools: dict[str, str | None], *, session: Session) -> Agent:
    """Create or refresh an agent with the tools and versions it found."""
    agent = session.get(Agent, name) or Agent(name=name)
    agent.hostname, agent.tools, agent.last_heartbeat = socket.gethostname(), tools, utcnow()
    session.add(agent)
    session.flush()
    return agent


def heartbeat(name: str, *, session: Session, beat: AgentHeartbeat | None = None) -> float:
    """Record that an agent is alive (and a remote one's clock offset); returns the server's clock."""
    agent = session.get(Agent, name)
    if agent is None and beat is not None:
        raise NotFound("agent", name)
    if agent is not None:
        agent.last_heartbeat = utcnow()
        if beat is not None and beat.clock_offset_s is not None:
            agent.facts = {**(agent.facts or {}), "clock_offset_ms": round(beat.clock_offset_s * 1000, 3),
                           "clock_rtt_ms": round((beat.rtt_s or 0) * 1000, 3)}
    return time.time()


def is_alive(agent: Agent) -> bool:
    """Heard from within three heartbeat periods."""
    return utcnow() - as_utc(agent.last_heartbeat) < timedelta(seconds=3 * get_settings().heartbeat_s)


def list_agents(*, session: Session) -> list[dict]:
    """Every agent, with an `alive` flag."""
    agents = session.scalars(select(Agent).order_by(Agent.name))
    return [{**{c: getattr(a, c) for c in ("name", "hostname", "tools", "last_heartbeat")}, "facts": a.facts or {}, "alive": is_alive(a),
             "status": AgentStatus.ALIVE if is_alive(a) else AgentStatus.SILENT} for a in agents]
