"""Agent request and response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.states import AgentStatus

AGENT_NAME = r"^[A-Za-z0-9_.-]{1,100}$"


class AgentFacts(BaseModel):
    """What a remote agent tells about itself when it registers."""

    model_config = ConfigDict(extra="forbid")

    hostname: str = Field(min_length=1, max_length=253)
    cpus: int = Field(ge=1, le=4096)
    addresses: list[str] = Field(default_factory=list, max_length=64)
    tools: dict[str, str | None] = Field(default_factory=dict, max_length=50)


class AgentHeartbeat(BaseModel):
    """A remote agent's sign of life, with its clock offset to the server as it last measured it."""

    model_config = ConfigDict(extra="forbid")

    clock_offset_s: float | None = Field(default=None, ge=-86_400, le=86_400, description="server clock − agent clock")
    rtt_s: float | None = Field(default=None, ge=0, le=60, description="the round trip the offset was measured over")


class AgentOut(BaseModel):
    """An agent with the tools it found, its facts and when it was last heard from."""

    model_config = ConfigDict(from_attributes=True)

    name: str
    hostname: str
    tools: dict[str, str | None]
    facts: dict[str, Any] = Field(default_factory=dict,
                                  description="remote agents: cpus, addresses, clock_offset_ms, remote, role (agent or observer)")
    last_heartbeat: datetime
    alive: bool
    status: AgentStatus
