"""A plan's CPU profile setting, a leaf: plans/ declare it (a plan's `cpu_profile`), and the profile's sides read it
(profiling/, the worker's capture, an observer) without plans/ importing profiling/."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.agents.schemas import AGENT_NAME
from kneeboard.validators import COMM


class CpuProfileSettings(BaseModel):
    """Opt-in per plan: profile the server's CPU at each point (perf on the host that runs the server: the observer the
    plan names, else the local worker, for loopback and lab targets)."""

    model_config = ConfigDict(extra="forbid")

    process: str = Field(pattern=COMM,
                         description="the server's command name (comm, at most 15 characters of A-Z a-z 0-9 _ . -, not starting with -: `coredns`, `nginx`); only "
                                     "its samples are kept")  # fmt: skip
    frequency_hz: int = Field(default=99, ge=1, le=999, description="samples per second on each CPU (99: off the timer's beat)")
    observer: str | None = Field(default=None, pattern=AGENT_NAME, description="the observer (`kneeboard agent --observe`) on the "
                                 "server's host that takes the profile; none: the local worker, for loopback and lab targets")
