"""Agent response bodies."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from kneeboard.states import AgentStatus


class AgentOut(BaseModel):
    """An agent with the tools it found and when it was last heard from."""

    model_config = ConfigDict(from_attributes=True)

    name: str
    hostname: str
    tools: dict[str, str | None]
    last_heartbeat: datetime
    alive: bool
    status: AgentStatus
