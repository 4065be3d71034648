"""Bodies of the observe assignments: what an observer is given, its acknowledgement and its report (every field
bounded: observers are remote callers)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

from kneeboard.events.actions import host_actions
from kneeboard.events.schemas import MAX_EVENTS
from kneeboard.profiling.folding import FULL, LEAF_ONLY, MAX_FOLDED_BYTES
from kneeboard.validators import COMM

_FOLDED_LINE = re.compile(r"^[^\n]+ [0-9]+$")
MAX_READINGS = 4000  # a process_cpu report's readings (the observer spaces them out past this: agent.py)
MAX_PROCESSES = 1024  # processes of one name in a reading


class HostEvent(BaseModel):
    """A host action the observer runs `at_s` seconds after the load starts (events/actions.py registers them)."""

    at_s: float
    action: str
    value: str


class ObserveAssignmentOut(BaseModel):
    """One point's observe assignment: either profile `process` (a command name, matched against /proc/*/comm: never
    a path or argv) at `frequency_hz` over [since, until], or run `events` (host actions) from `start_at`, everything
    they took out put back by `until` (the load's end); times are the server's clock, epoch seconds."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    point_id: int
    campaign_id: int
    process: str | None
    frequency_hz: int | None
    events: list[HostEvent] | None = None
    settings: dict[Annotated[str, Field(max_length=40)], int | str | bool | None] | None = Field(
        default=None, max_length=8, description="host settings to apply (null value: put back what was found), then read the facts")
    start_at: float = Field(description="the load starts: acknowledge before this")
    since: float = Field(description="the point's steady window begins (events: the load's start)")
    until: float = Field(description="and ends (events: the load's end, the deadline to put everything back)")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kind(self) -> Literal["cpu_profile", "events", "process_cpu", "host"]:
        """What the observer does: profile `process` (a frequency given), run `events`, apply host `settings` and read
        its host's facts, or read `process`'s CPU from /proc over the load (no frequency: process_cpu, from the load's
        start to its end)."""
        if self.settings is not None:
            return "host"
        if self.events:
            return "events"
        return "process_cpu" if self.frequency_hz is None else "cpu_profile"


class ObserveAck(BaseModel):
    """The observer took the assignment; whether a process of that command name runs on its host now."""

    model_config = ConfigDict(extra="forbid")

    process_seen: bool | None = Field(default=None, description="null for an assignment of events")


class ObserveState(BaseModel):
    """The answer to an assignment's sign of life: `stop` is why to stop profiling now (the point is over), or null."""

    stop: str | None


class ProfileRow(BaseModel):
    """A folded CPU profile as the observer took it (runs/cpu_capture.py's row)."""

    model_config = ConfigDict(extra="forbid")

    process: str = Field(pattern=COMM)
    frequency_hz: int = Field(ge=1, le=999)
    window_s: float = Field(ge=0, le=700)
    samples: int = Field(ge=0, le=10**9)
    all_samples: int = Field(ge=0, le=10**9)
    stack_depth: str | None = Field(default=None, pattern=f"^({FULL}|{LEAF_ONLY})$")
    stacks: int = Field(ge=0, le=10**7)
    dropped_stacks: int = Field(ge=0, le=10**9)
    dropped_samples: int = Field(ge=0, le=10**9)
    folded: str = Field(max_length=MAX_FOLDED_BYTES, description="root;…;leaf count, a line; at most 1 MiB")

    @field_validator("folded")
    @classmethod
    def _lines(cls, text: str) -> str:
        if len(text.encode()) > MAX_FOLDED_BYTES:
            raise ValueError(f"over {MAX_FOLDED_BYTES:,} bytes")
        bad = next((n for n, line in enumerate(text.splitlines(), 1) if not _FOLDED_LINE.match(line)), None)
        if bad is not None:
            raise ValueError(f"line {bad} is not `frame;…;frame count`")
        return text


class HostEventRecord(BaseModel):
    """One host action as the observer ran it (or refused it): times on the server's clock."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=40)
    value: str = Field(max_length=40)
    at_s: float | None = Field(default=None, ge=0, le=3600)
    t: float = Field(description="when it was fired (or refused)")
    done: float | None = None
    error: str | None = Field(default=None, max_length=500)
    listening: float | None = Field(default=None, description="a started service answered")
    pid: int | None = Field(default=None, ge=1, le=2**22)
    packets: dict[Annotated[str, Field(max_length=20)], int] | None = Field(default=None, max_length=4)

    @field_validator("action")
    @classmethod
    def _host_action(cls, action: str) -> str:
        if action not in host_actions():
            raise ValueError(f"{action!r} is not a host action")
        return action


class ProcessHost(BaseModel):
    """The observer's host's CPU time since boot at one reading (tools/process/read.py's host_cpu)."""

    model_config = ConfigDict(extra="forbid")

    busy_s: float = Field(ge=0)
    total_s: float = Field(ge=0)
    cpus: int = Field(ge=0, le=65_536)


class ProcessUsable(BaseModel):
    """What the read processes may use (tools/process/read.py's usable)."""

    model_config = ConfigDict(extra="forbid")

    affinity: list[Annotated[int, Field(ge=0, le=65_535)]] | None = Field(default=None, max_length=65_536)
    cgroup_cpus: float | None = Field(default=None, ge=0)
    cgroups: list[Annotated[str, Field(max_length=500)]] | None = Field(default=None, max_length=64)
    gomaxprocs: int | None = Field(default=None, ge=1, le=10**6)
    cpus: float | None = Field(default=None, ge=0)
    source: str | None = Field(default=None, max_length=1000)


class ProcessReading(BaseModel):
    """One reading of the named process's CPU on the observer's host (tools/process/read.py's line), `t` on the
    server's clock; procs: [pid, start_s since boot, cpu_s, run-queue wait_s or null]."""

    model_config = ConfigDict(extra="forbid")

    t: float
    boot_s: float = Field(ge=0)
    process: str = Field(pattern=COMM)
    procs: list[tuple[Annotated[int, Field(ge=1, le=2**22)], float, float, float | None]] = Field(max_length=MAX_PROCESSES)
    host: ProcessHost
    usable: ProcessUsable | None = None


class HostSecond(BaseModel):
    """One second of the observer's own reading of its host (observers/readings.py's between): per-CPU % by mode,
    NET_RX, softnet drops and time squeezes per second per CPU, the interface's drops per second."""

    model_config = ConfigDict(extra="forbid")

    cpus: dict[Annotated[str, Field(max_length=8)], dict[Annotated[str, Field(max_length=8)], float]] = Field(max_length=4096)
    net_rx_s: dict[Annotated[str, Field(max_length=8)], float] = Field(default_factory=dict, max_length=4096)
    softnet_drop_s: dict[Annotated[str, Field(max_length=8)], float] = Field(default_factory=dict, max_length=4096)
    squeeze_s: dict[Annotated[str, Field(max_length=8)], float] = Field(default_factory=dict, max_length=4096)
    interface: dict[Annotated[str, Field(max_length=16)], float] | None = None


class HostSettingDone(BaseModel):
    """One host setting as the observer applied or put it back (observers/nic.py HostNic.apply)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=40)
    value: int | str | bool | None = None
    read_back: int | str | bool | None = None
    before: int | str | bool | None = None
    error: str | None = Field(default=None, max_length=500)


class HostReport(BaseModel):
    """A host assignment's report: the settings applied (read back), the first refused and why, the host's facts."""

    model_config = ConfigDict(extra="forbid")

    applied: list[HostSettingDone] = Field(default_factory=list, max_length=16)
    refused: str | None = Field(default=None, max_length=500)
    expired: list[HostSettingDone] = Field(default_factory=list, max_length=16, description="put back: past the file's in_force_max_s")
    facts: dict[Annotated[str, Field(max_length=200)], Annotated[str, Field(max_length=1000)]] = Field(default_factory=dict, max_length=2000)


class ObservedProfile(BaseModel):
    """An observer's report of one assignment: the folded profile, or why there is none; for an assignment of events,
    each event as run and each thing put back after them."""

    model_config = ConfigDict(extra="forbid")

    profile: ProfileRow | None = None
    error: str | None = Field(default=None, max_length=2000)
    seen: list[tuple[Annotated[str, Field(max_length=64)], int]] = Field(default_factory=list, max_length=5,
                                                                         description="samples by command name, most first")
    fold_s: float = Field(default=0.0, ge=0, le=3600)
    events: list[HostEventRecord] = Field(default_factory=list, max_length=MAX_EVENTS)
    reverted: list[HostEventRecord] = Field(default_factory=list, max_length=MAX_EVENTS)
    process_cpu: list[ProcessReading] = Field(default_factory=list, max_length=MAX_READINGS,
                                              description="a process_cpu assignment's readings, first to last")
    host_seconds: list[HostSecond] = Field(default_factory=list, max_length=MAX_READINGS,
                                           description="the observer's own host readings beside process_cpu's, per second")
    host: HostReport | None = Field(default=None, description="a host assignment's settings and facts")
