"""Agent routes: the list, and registration and heartbeats of remote agents (role agent or admin)."""

from __future__ import annotations

from fastapi import APIRouter, Path

from kneeboard.agents import service
from kneeboard.agents.schemas import AGENT_NAME, AgentHeartbeat, AgentOut, AgentRegistration, AgentWelcome, ServerClock
from kneeboard.auth.deps import CurrentUser
from kneeboard.auth.errors import Forbidden
from kneeboard.auth.roles import Role
from kneeboard.deps import SessionDep

router = APIRouter(prefix="/agents", tags=["agents"])


def _agent_or_admin(user: CurrentUser) -> None:
    if Role(user.role) not in {Role.agent, Role.admin}:
        raise Forbidden(f"registering an agent needs the agent or admin role; you are {user.role}")


@router.get("", response_model=list[AgentOut])
def list_agents(session: SessionDep):
    """Agents with their tools, versions, facts and last heartbeat."""
    return service.list_agents(session=session)


@router.post("/register", response_model=AgentWelcome)
def register(body: AgentRegistration, user: CurrentUser, session: SessionDep):
    """A remote agent registers with its facts; it gets the broker URL and the server's clock."""
    _agent_or_admin(user)
    return service.register_remote(body.name, body.facts, session=session)


@router.post("/{name}/heartbeat", response_model=ServerClock)
def heartbeat(body: AgentHeartbeat, user: CurrentUser, session: SessionDep, name: str = Path(pattern=AGENT_NAME)):
    """A remote agent is alive; the reply carries the server's clock for its offset."""
    _agent_or_admin(user)
    return {"server_time": service.heartbeat(name, session=session, beat=body)}
