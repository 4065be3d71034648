"""The server evidence's shape in the API (an analysis' `evidence`, kneeboard.evidence.assess)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Bottleneck(BaseModel):
    """The resource over its threshold by the USE rules (evidence/bottleneck.py), or kind "none" saying why none: the
    saturation the client saw that no resource read explains, the closest resource, or that nothing was read."""

    resource: str | None
    kind: Literal["utilisation", "saturation", "errors", "none"]
    text: str
    evidence: list[str] = Field(default_factory=list, description="the other rules over their thresholds, or the closest one")
    value: float | None = None
    threshold: float | None = None
    read: list[str] = Field(default_factory=list, description="every resource the rules judged, with its figures")
    not_read: list[str] = Field(default_factory=list, description="what the rules would judge that no monitor read")


class DropRate(BaseModel):
    """Where part of a difference between the client's and the server's counts went."""

    what: str
    rate: float = Field(description="per second")
    share_pct: float | None = Field(default=None, description="of the requests the server did not count")


class LoadWindow(BaseModel):
    """When a counter was read: right before the load started and after it ended, once it stopped rising (epoch seconds)."""

    before_t: float
    after_t: float
    load_s: float = Field(description="the load's length the counter's rate is over")


class HostSplit(BaseModel):
    """The host's CPUs over one point, in CPUs busy: the server process, the load generator with Kneeboard's monitors,
    the rest, idle."""

    server: float
    generator: float | None
    other: float
    idle: float
    cpus: int | None
    text: str


class Agreement(BaseModel):
    """The server's request count beside the client's, per second."""

    server_rate: float
    sent_rate: float | None
    answered_rate: float | None
    lost_rate: float | None
    difference_pct: float = Field(description="(server − sent) / sent")
    agree: bool = Field(description="within ±2 %")
    source: str
    where: list[DropRate] = Field(default_factory=list)
    text: str
    count: float | None = Field(default=None, description="the requests the server counted over the whole load (its counter's increase)")
    window: LoadWindow | None = Field(default=None, description="the counter's readings that bracket the load")


class Cost(BaseModel):
    """The server process's CPU-seconds per unit of work (the tool's work_unit)."""

    value: float
    unit: str
    cpu_pct: float = Field(description="the process's CPU over the load, % of one CPU")
    cpu_s: float | None = Field(default=None, description="its CPU-seconds over the whole load, when read so")
    usable_cpus: float | None = Field(default=None, description="the CPUs it may use (affinity, cgroup quota, GOMAXPROCS), when read")
    source: str


class EvidencePoint(BaseModel):
    """One point's server evidence."""

    point_id: int | None
    phase: str | None
    offered_rate: float | None
    concurrency: int | None
    repeat: int | None
    variant: str | None
    agreement: Agreement | None
    cost: Cost | None
    bottleneck: Bottleneck
    exporters: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list, description="the exporters and monitors its figures came from")
    host_split: HostSplit | None = Field(default=None, description="the host's CPUs split between server, generator, other and idle")
    generator_limited: bool = Field(default=False, description="the generator did not send this load: no bottleneck is judged on it")


class JudgedAt(BaseModel):
    """The point the campaign's bottleneck was read at."""

    point_id: int | None
    offered_rate: float | None
    where: str = Field(description='"at the knee", "at the highest load judged" or "where the client first saw saturation"')


class MeanCost(BaseModel):
    """The mean of the points' costs: what comparisons and trends read as server_cost."""

    value: float
    unit: str
    points: int


class Evidence(BaseModel):
    """What the server's own metrics say: the bottleneck the conclusion leads with, and every watched point's evidence."""

    bottleneck: Bottleneck | None
    at: JudgedAt | None
    points: list[EvidencePoint]
    notes: list[str] = Field(default_factory=list)
    cost: MeanCost | None = None
    missing: str | None = Field(default=None, description="why no bottleneck is named")
    read: list[str] = Field(default_factory=list, description="the exporters and monitors any point's figures came from "
                            "(empty: nothing server-side was read, the per-point table has nothing to show)")
