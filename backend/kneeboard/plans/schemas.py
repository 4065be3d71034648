"""A plan's shape (DESIGN.md "A plan's shape"): one model per tool, told apart by `tool`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, field_validator, model_validator

from kneeboard.config import get_settings
from kneeboard.plans.phases import Phase, RampPhase, ScalabilityPhase
from kneeboard.validators import Host, QueryName, Tag

QType = Literal["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SOA", "SRV", "TXT", "CAA", "DS", "DNSKEY", "HTTPS", "ANY"]
ToolName = Literal["dnsperf", "wrk", "iperf3", "devsim"]
TOOL_TARGET_KIND = {"dnsperf": "dns", "wrk": "http", "iperf3": "net", "devsim": "device"}


class MpstatMonitor(BaseModel):
    """Per-CPU utilisation each second beside every point."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["mpstat"]


class PingMonitor(BaseModel):
    """Round-trip time and loss to a host beside every point."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["ping"]
    host: Host


Monitor = Annotated[MpstatMonitor | PingMonitor, Field(discriminator="kind")]


class Variant(BaseModel):
    """An environment setting the phases are repeated under, applied by a registered action."""

    model_config = ConfigDict(extra="forbid")
    label: str = Field(min_length=1, max_length=80)
    set: dict[str, bool | int | float | str] = Field(default_factory=dict)

    @field_validator("set")
    @classmethod
    def _known_actions(cls, value: dict[str, Any]) -> dict[str, Any]:
        from kneeboard.lab.actions import ActionError, validate_setting

        out = {}
        for name, setting in value.items():
            try:
                out[name] = validate_setting(name, setting)
            except ActionError as exc:
                raise ValueError(str(exc) if name in str(exc) else f"{name}: {exc}") from None
        return out


class _PlanBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    target_id: int = Field(ge=1)
    phases: list[Phase] = Field(min_length=1, max_length=50)
    pause_s: float = Field(default=3.0, ge=0)
    repeat: int = Field(default=1, ge=1)
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    monitors: list[Monitor] = Field(default_factory=list, max_length=4)
    variants: list[Variant] = Field(default_factory=list, max_length=10)

    ramp_allowed: ClassVar[bool] = False  # a stress ramp suits closed-loop wrk only
    whole_seconds: ClassVar[bool] = False  # wrk -d and iperf3 -t take whole seconds

    @model_validator(mode="after")
    def _phases_fit_the_tool(self) -> _PlanBase:
        for i, phase in enumerate(self.phases):
            if isinstance(phase, RampPhase) and not self.ramp_allowed:
                raise ValueError(f"phases[{i}].kind: a ramp phase is for wrk")
            if self.whole_seconds and phase.duration_s != int(phase.duration_s):
                raise ValueError(f"phases[{i}].duration_s: {self.tool} takes whole seconds")
        return self

    @field_validator("pause_s")
    @classmethod
    def _pause_capped(cls, value: float) -> float:
        if value > get_settings().max_pause_s:
            raise ValueError(f"must be at most {get_settings().max_pause_s:g} s (MAX_PAUSE_S)")
        return value

    @field_validator("repeat")
    @classmethod
    def _repeat_capped(cls, value: int) -> int:
        if value > get_settings().max_repeat:
            raise ValueError(f"must be at most {get_settings().max_repeat} (MAX_REPEAT)")
        return value


class DnsperfParams(BaseModel):
    """dnsperf's own parameters: the query names (one repeated, or a list) and record type."""

    model_config = ConfigDict(extra="forbid")
    names: list[QueryName] = Field(default_factory=lambda: ["www.example.lab"], min_length=1, max_length=100_000)
    qtype: QType = "A"
    timeout_s: float = Field(default=5.0, ge=0.1, le=60)


class DnsperfPlan(_PlanBase):
    """A DNS sweep with dnsperf; `rate` is queries/s, `concurrency` dnsperf's clients (-c)."""

    tool: Literal["dnsperf"]
    params: DnsperfParams = Field(default_factory=DnsperfParams)


class WrkParams(BaseModel):
    """wrk's own parameters."""

    model_config = ConfigDict(extra="forbid")
    path: str = Field(default="/", max_length=2000, pattern=r"^/[^\s]*$")
    threads: int = Field(default=2, ge=1, le=64)
    timeout_s: float = Field(default=2.0, ge=0.1, le=60)


class WrkPlan(_PlanBase):
    """An HTTP sweep with wrk: closed-loop, `concurrency` = connections, no `rate`."""

    tool: Literal["wrk"]
    params: WrkParams = Field(default_factory=WrkParams)

    ramp_allowed: ClassVar[bool] = True
    whole_seconds: ClassVar[bool] = True

    @model_validator(mode="after")
    def _closed_loop(self) -> WrkPlan:
        for i, phase in enumerate(self.phases):
            if getattr(phase, "rate", None) is not None or getattr(phase, "unit_rate", None) is not None:
                raise ValueError(f"phases[{i}].rate: wrk is closed-loop and takes no offered rate; leave rate out")
        return self


class Iperf3Params(BaseModel):
    """iperf3's own parameters; `rate` is the total bitrate (bits/s), divided per stream."""

    model_config = ConfigDict(extra="forbid")
    protocol: Literal["tcp", "udp"] = "tcp"
    reverse: bool = False
    length: int | None = Field(default=None, ge=16, le=65507)


class Iperf3Plan(_PlanBase):
    """A throughput sweep with iperf3: `concurrency` = parallel streams (-P), `rate` = total bits/s."""

    tool: Literal["iperf3"]
    params: Iperf3Params = Field(default_factory=Iperf3Params)

    whole_seconds: ClassVar[bool] = True


class DevsimParams(BaseModel):
    """devsim's own parameters: the device profile and connection behaviour."""

    model_config = ConfigDict(extra="forbid")
    profile: str = Field(default="singlelight", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    start_id: int = Field(default=1, ge=1, le=999_999_999_999)
    ramp_per_s: int = Field(default=5000, ge=1, le=1_000_000)
    login_timeout_s: float = Field(default=5.0, ge=0.1, le=120)
    procs: int = Field(default=1, ge=1, le=16)
    source_ips: int = Field(default=1, ge=1, le=16)


class DevsimPlan(_PlanBase):
    """A device campaign: `concurrency` = devices, `rate` = reports/s per device."""

    tool: Literal["devsim"]
    params: DevsimParams = Field(default_factory=DevsimParams)


PlanBody = Annotated[DnsperfPlan | WrkPlan | Iperf3Plan | DevsimPlan, Discriminator("tool")]
AnyPlan = DnsperfPlan | WrkPlan | Iperf3Plan | DevsimPlan


class _Stored(BaseModel):
    id: int
    created_at: datetime
    updated_at: datetime


class DnsperfPlanOut(DnsperfPlan, _Stored):
    """A stored dnsperf plan."""


class WrkPlanOut(WrkPlan, _Stored):
    """A stored wrk plan."""


class Iperf3PlanOut(Iperf3Plan, _Stored):
    """A stored iperf3 plan."""


class DevsimPlanOut(DevsimPlan, _Stored):
    """A stored devsim plan."""


PlanOut = Annotated[DnsperfPlanOut | WrkPlanOut | Iperf3PlanOut | DevsimPlanOut, Discriminator("tool")]


class PointPreview(BaseModel):
    """One point a plan expands to."""

    seq: int
    variant: str | None
    phase_index: int
    phase: str
    concurrency: int
    offered_rate: float | None
    duration_s: float
    repeat: int


class PlanPreview(BaseModel):
    """What a plan would run: its points and the estimated duration."""

    points: list[PointPreview]
    point_count: int
    estimated_s: float


class PlanTemplate(BaseModel):
    """A built-in plan to start from (its target_id is to be chosen)."""

    id: str
    title: str
    description: str
    plan: dict[str, Any]


__all__ = ["AnyPlan", "PlanBody", "PlanOut", "PlanPreview", "PlanTemplate", "PointPreview", "ScalabilityPhase"]
