"""Agent routes: the list (remote agents register through the agent link, `agentlink/`)."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.agents import service
from kneeboard.agents.schemas import AgentOut
from kneeboard.deps import SessionDep

router = APIRouter(prefix="/agents", tags=["agents"])


@router.get("", response_model=list[AgentOut])
def list_agents(session: SessionDep):
    """Agents with their tools, versions, facts and last heartbeat."""
    return service.list_agents(session=session)
