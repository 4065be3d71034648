"""The plan fields of fan-out: how many (or which) agents run each point, and what one failing agent means."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

MAX_AGENTS = 16
AgentName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,100}$")]


def _distinct(names: list[str]) -> list[str]:
    if len(set(names)) != len(names):
        raise ValueError("names an agent twice")
    return names


AgentCount = Annotated[int, Field(ge=1, le=MAX_AGENTS, strict=True)]
AgentNames = Annotated[list[AgentName], Field(min_length=1, max_length=MAX_AGENTS), AfterValidator(_distinct)]
Agents = Annotated[AgentCount | AgentNames | None, Field(
    default=None, description=f"run each point on several agents at once: a count (1-{MAX_AGENTS}) of registered remote agents, "
                              "or their names; the point's rate and concurrency are divided between them")]
OnAgentFailure = Annotated[Literal["fail", "partial"], Field(
    default="fail", description="when one agent of a fanned point fails: fail the point, or keep the other agents' shares as a partial point")]
