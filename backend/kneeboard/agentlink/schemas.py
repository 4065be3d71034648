"""Bodies of the agent link and of agent credentials (every field bounded: agents are remote callers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.agents.schemas import AGENT_NAME, AgentFacts, AgentHeartbeat
from kneeboard.fanout.outcome import TAIL_CHARS

INSTANCE = r"^[A-Za-z0-9_-]{8,64}$"


class CredentialCreate(BaseModel):
    """An admin asks for a credential bound to one agent name."""

    model_config = ConfigDict(extra="forbid")

    agent: str = Field(pattern=AGENT_NAME, description="the one agent name this credential may act as")
    role: Literal["load", "observe"] = Field(default="load", description="load: takes shares of fanned points; observe: an observer "
                                             "on the server under test, which takes only its observe assignments (docs/profiling.md)")


class CredentialOut(BaseModel):
    """A credential as listed: never its secret."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    agent: str
    role: str
    prefix: str
    created_by: str
    created_at: datetime
    last_used_at: datetime | None


class CredentialIssued(CredentialOut):
    """A new credential, with its secret: shown this once."""

    secret: str


class Hello(BaseModel):
    """A remote agent starting: its facts and the id of this process (a restart is a new instance)."""

    model_config = ConfigDict(extra="forbid")

    agent: str = Field(pattern=AGENT_NAME, description="the name it was started as: must be its credential's")
    instance: str = Field(pattern=INSTANCE)
    facts: AgentFacts


class Welcome(BaseModel):
    """What a registered agent needs: its name, the server's clock and how often to beat. No broker, no database."""

    agent: str
    server_time: float = Field(description="the server's clock, epoch seconds")
    heartbeat_s: float
    poll_s: float = Field(description="how long a work poll waits for a share before answering 204")


class Beat(AgentHeartbeat):
    """A heartbeat of the agent's registered process."""

    instance: str = Field(pattern=INSTANCE)


class ServerClock(BaseModel):
    """The server's clock, for the agent's offset."""

    server_time: float


class ShareState(BaseModel):
    """The answer to a share's sign of life: `stop` is why the agent must stop its load now, or null."""

    stop: str | None


class LiveSample(BaseModel):
    """One interval of a share's tool output, on the server's clock."""

    model_config = ConfigDict(extra="forbid")

    t: float = Field(ge=0, le=1e11)
    values: dict[str, float | None] = Field(max_length=64)


class LiveSamples(BaseModel):
    """Intervals a share printed since the last post."""

    model_config = ConfigDict(extra="forbid")

    samples: list[LiveSample] = Field(max_length=200)


class OutcomeIn(BaseModel):
    """One agent's share as it reports it: parsed result, start time (server clock), CPU and evidence tails."""

    model_config = ConfigDict(extra="forbid")

    offered_rate: float | None = Field(default=None, ge=0)
    metrics: dict[str, float | None] = Field(default_factory=dict, max_length=200)
    extra: dict[str, Any] = Field(default_factory=dict, max_length=200)
    samples: list[dict[str, Any]] = Field(default_factory=list, max_length=20_000)
    error: str | None = Field(default=None, max_length=4000)
    started_at: float | None = Field(default=None, ge=0, le=1e11)
    cpu_s: float | None = Field(default=None, ge=0)
    cpus: int | None = Field(default=None, ge=1, le=4096)
    argv: list[str] = Field(default_factory=list, max_length=1000)
    exit_code: int | None = None
    stdout: str = Field(default="", max_length=TAIL_CHARS)
    stderr: str = Field(default="", max_length=TAIL_CHARS)
    cancelled: bool = False
    parser_version: str = Field(default="1", max_length=20)
