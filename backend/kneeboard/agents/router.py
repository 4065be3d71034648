"""Agent routes."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from sqlalchemy.orm import Session

from kneeboard.agents import service
from kneeboard.agents.schemas import AgentOut
from kneeboard.deps import get_session

router = APIRouter(prefix="/agents", tags=["agents"])


@router.get("", response_model=list[AgentOut])
def list_agents(session: Session = Depends(get_session)):
    """Agents with their tools, versions and last heartbeat."""
    return service.list_agents(session=session)
