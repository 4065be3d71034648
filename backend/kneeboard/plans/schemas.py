"""A plan's shape (DESIGN.md "A plan's shape"): one model per tool, told apart by `tool`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, create_model, field_validator, model_validator

from kneeboard.analysis.capacity import SLO_METRICS
from kneeboard.analysis.verdicts import MARGIN_PCT
from kneeboard.config import get_settings
from kneeboard.fanout.schemas import Agents, OnAgentFailure
from kneeboard.inputs import MAX_ID
from kneeboard.plans.phases import Phase, RampPhase, ScalabilityPhase, SearchPhase, reference_error
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.search.schemas import SearchEstimate
from kneeboard.tools import registry
from kneeboard.tools.base import ToolInputError
from kneeboard.tools.contract import ToolAdapter
from kneeboard.validators import Tag


def _monitor_model(tool: ToolAdapter) -> type[BaseModel]:
    """A plan's monitor entry: `kind` names the monitor, its parameters sit beside it."""
    return create_model(f"{tool.name.capitalize()}Monitor", __base__=tool.Params, __doc__=tool.title,
                        kind=(Literal[tool.name], ...))  # type: ignore[valid-type]


Monitor = Annotated[Union[tuple(_monitor_model(m) for m in registry.monitors())], Field(discriminator="kind")]  # noqa: UP007


class Variant(BaseModel):
    """An environment setting the phases are repeated under, applied by a registered action."""

    model_config = ConfigDict(extra="forbid")
    label: str = Field(min_length=1, max_length=80)
    set: dict[str, bool | int | float | str] = Field(default_factory=dict, max_length=10,
                                                     description="lab action → value; checked against GET /api/v1/lab")
    params: dict[str, Any] = Field(default_factory=dict, max_length=10,
                                   description="the tool's parameters this variant changes over the plan's (e.g. dnsperf's mode "
                                               "and port: UDP, DoT and DoH on one resolver in one campaign); checked by the tool")


def params_of(plan: dict, variant: str | None) -> dict:
    """The tool parameters a point of `variant` runs with: the plan's, with its variant's changes over them."""
    changes = next((v.get("params") or {} for v in plan.get("variants") or [] if v["label"] == variant), {})
    return {**(plan.get("params") or {}), **changes}


class Slo(BaseModel):
    """The latency target a campaign's capacity is read against: the highest load keeping `metric` ≤ `limit_ms`."""

    model_config = ConfigDict(extra="forbid")
    metric: Literal[SLO_METRICS] | None = Field(default=None, description="the latency the target is read on, one the tool "
                                                "measures; null: p99 when measured, else the mean")
    limit_ms: float = Field(default=3.0, gt=0, le=60_000, description="the latency target (ms)")


SERVER_METRICS = {"server_cost": "lower", "server_rate": "higher"}  # point figures the server evidence adds (evidence/assess.py)


class UntilDecided(BaseModel):
    """Repeat until decided: keep running passes (each variant once, alternating) until the named metrics are decided."""

    model_config = ConfigDict(extra="forbid")

    metrics: list[str] = Field(min_length=1, max_length=8, description="the headline metrics to decide (point figures: "
                               "the tool's, or server_cost / server_rate from the server evidence)")
    margin_pct: float = Field(default=5.0, gt=0, le=50, description="\"equivalent within ±margin\" when the difference's "
                              "anytime-valid interval lies inside it")
    max_passes: int = Field(default=20, ge=2, description="the most passes: bounds points, caps, the preview and schedules")
    budget_s: float | None = Field(default=None, gt=0, description="stop before a pass that would spend more than this")


class _PlanBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    target_id: int = Field(ge=1, le=MAX_ID)
    phases: list[Phase] = Field(min_length=1, max_length=50)
    pause_s: float = Field(default=3.0, ge=0)
    repeat: int = Field(default=1, ge=1)
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    monitors: list[Monitor] = Field(default_factory=list, max_length=12)  # mpstat, ping, node and up to 8 exporters
    variants: list[Variant] = Field(default_factory=list, max_length=10)
    agents: Agents = None
    on_agent_failure: OnAgentFailure = "fail"
    slo: Slo = Field(default_factory=Slo, description="the capacity's latency target; the report names it")
    cpu_profile: CpuProfileSettings | None = Field(default=None, description="a CPU profile of the server's process at each point (docs/profiling.md)")
    derive: Literal["own", "reference"] = Field(default="own", description="a derived rate: each variant and repetition "
                                                "resolves its own, or all take the first variant's first (one absolute rate: matched loads)")
    margin_pct: float = Field(default=MARGIN_PCT, gt=0, le=50, description="the practical margin, ± % of the reference: comparisons say "
                              "\"equivalent within ±margin\" when the difference's interval lies inside it (TOST)")
    until_decided: UntilDecided | None = Field(default=None, description="variants: run passes until the named metrics "
                                               "are decided (worse, better or equivalent) or the budget is spent")

    tool: str
    params: BaseModel

    @model_validator(mode="after")
    def _phases_fit_the_tool(self) -> _PlanBase:
        tool = registry.adapter(self.tool)
        for i, phase in enumerate(self.phases):
            if isinstance(phase, RampPhase) and not tool.ramp_allowed:
                raise ValueError(f"phases[{i}].kind: a ramp phase is for closed-loop tools")
            if not tool.takes_rate and (getattr(phase, "rate", None) is not None or getattr(phase, "unit_rate", None) is not None):
                raise ValueError(f"phases[{i}].rate: {self.tool} is closed-loop and takes no offered rate; leave rate out")
            if isinstance(phase, SearchPhase):
                _search_fits(self, tool, i, phase)
            if (why := reference_error(self.phases, i)) is not None:
                raise ValueError(f"phases[{i}].{'found' if phase.kind == 'fractions' else 'rate'}: {why}")
            if phase.kind == "fractions" and not tool.takes_rate:
                raise ValueError(f"phases[{i}].kind: {self.tool} is closed-loop and takes no offered rate to derive")
            _events_fit(self, i, phase)
        for i, variant in enumerate(self.variants):
            if variant.params:
                try:
                    tool.read_params({**self.params.model_dump(), **variant.params})
                except ToolInputError as exc:
                    raise ValueError(f"variants[{i}].{exc}") from None
        _until_decided_fits(self, tool)
        if self.slo.metric is not None and self.slo.metric not in {m.name for m in tool.all_metrics()}:
            raise ValueError(f"slo.metric: {self.tool} does not measure {self.slo.metric}")
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


def _until_decided_fits(plan: _PlanBase, tool: ToolAdapter) -> None:
    """Repeat until decided compares variants on metrics that say which way is better, within MAX_REPEAT passes."""
    until = plan.until_decided
    if until is None:
        return
    if len(plan.variants) < 2:
        raise ValueError("until_decided: needs two variants or more (the first is the reference)")
    for j, metric in enumerate(until.metrics):
        if metric_sense(tool, metric) is None:
            raise ValueError(f"until_decided.metrics[{j}]: {tool.name} measures no {metric} that says which way is better")
    if until.max_passes > get_settings().max_repeat:
        raise ValueError(f"until_decided.max_passes: must be at most {get_settings().max_repeat} (MAX_REPEAT)")
    if until.max_passes < plan.repeat:
        raise ValueError(f"until_decided.max_passes: {until.max_passes} is fewer than the {plan.repeat} passes `repeat` runs first")


def metric_sense(tool: ToolAdapter, metric: str) -> int | None:
    """+1 when higher is better, −1 when lower is, for a tool's metric or a server figure (None: unknown or no sense)."""
    better = SERVER_METRICS.get(metric) or next((m.better for m in tool.all_metrics() if m.name == metric), None)
    return {"higher": +1, "lower": -1}.get(better or "")


def _events_fit(plan: _PlanBase, i: int, phase: Phase) -> None:
    """Events fire within one point run on this worker: not in a search or a ramp (points made as they go), not in a
    fanned point (the load is elsewhere), and before the point's end."""
    if not phase.events:
        return
    if isinstance(phase, (SearchPhase, RampPhase)):
        raise ValueError(f"phases[{i}].events: a {phase.kind} phase makes its points as it goes; events go in baseline, "
                         "scalability, saturation, stability or custom phases")
    if phase.agents or plan.agents:
        raise ValueError(f"phases[{i}].events: a point fanned over agents cannot carry events (they act from the worker)")
    for j, event in enumerate(phase.events):
        if event.at_s >= phase.duration_s:
            raise ValueError(f"phases[{i}].events[{j}].at_s: {event.at_s:g} s is not within the point's {phase.duration_s:g} s")


def _search_fits(plan: _PlanBase, tool: ToolAdapter, i: int, phase: SearchPhase) -> None:
    """A search needs an offered rate (iperf3: UDP) and criteria its tool measures."""
    if not tool.takes_rate or getattr(plan.params, "protocol", "udp") != "udp":
        raise ValueError(f"phases[{i}].kind: a search phase needs a tool with an offered rate where loss is measured "
                         f"(dnsperf, kbhttp, iperf3 UDP, devsim); {tool.name} does not fit")
    measured = {m.name for m in tool.all_metrics()} | {"loss_pct", "efficiency_pct"}
    for j, criterion in enumerate(phase.criteria):
        if criterion.metric not in measured:
            raise ValueError(f"phases[{i}].criteria[{j}].metric: {tool.name} does not measure {criterion.metric}")


def _plan_model(tool: ToolAdapter) -> type[_PlanBase]:
    """The plan shape for one load tool: the common fields, `tool`, and the tool's own Params."""
    return create_model(f"{tool.name.capitalize()}Plan", __base__=_PlanBase, __doc__=f"A campaign plan for {tool.title}.",
                        tool=(Literal[tool.name], ...), params=(tool.Params, Field(default_factory=tool.Params)))  # type: ignore[valid-type]


_PLANS = {tool.name: _plan_model(tool) for tool in registry.load_tools()}
AnyPlan = _PlanBase
PlanBody = Annotated[Union[tuple(_PLANS.values())], Discriminator("tool")]  # noqa: UP007
ToolName = Literal[tuple(_PLANS)]  # type: ignore[valid-type]


class _Stored(BaseModel):
    id: int
    created_at: datetime
    updated_at: datetime
    baseline_campaign_id: int | None = Field(default=None, description="the campaign this plan's reports compare against")


class BaselinePin(BaseModel):
    """Pin (or, with null, unpin) the campaign a plan's reports compare against."""

    model_config = ConfigDict(extra="forbid")
    campaign_id: int | None = Field(ge=1, le=2**63 - 1)


def _stored_model(plan: type[_PlanBase]) -> type[BaseModel]:
    return create_model(f"{plan.__name__}Out", __base__=(plan, _Stored), __doc__=f"A stored {plan.__name__}.")


PlanOut = Annotated[Union[tuple(_stored_model(p) for p in _PLANS.values())], Discriminator("tool")]  # noqa: UP007


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
    rate_from: str | None = Field(default=None, description="a derived rate: where it comes from (before a run: what it "
                                                             "depends on; the rate shown is the highest it can be)")


class PlanPreview(BaseModel):
    """What a plan would run: its points and the estimated duration. A search's trials are not known before it runs:
    its phase expands to its first trial, and the duration is a range (`estimated_min_s` to `estimated_s`), from each
    search's range in `searches`."""

    points: list[PointPreview]
    point_count: int = Field(description="the points of `points`: with repeat until decided, its first passes'")
    point_count_max: int = Field(description="the most points it can run: repeat until decided's most passes; else point_count")
    estimated_s: float = Field(description="the longest expected wall time (seconds)")
    estimated_min_s: float = Field(description="the shortest; equal to estimated_s without a search phase")
    searches: list[SearchEstimate] = Field(default_factory=list)


class PlanTemplate(BaseModel):
    """A built-in plan to start from (its target_id is to be chosen)."""

    id: str
    title: str
    description: str
    seed: str | None = Field(default=None, description="the seed write-up this template reproduces (docs/seeds.md), e.g. \"001\"")
    lab_targets: list[str] = Field(default_factory=list, description="the lab targets it is meant for; several: one campaign "
                                                                     "each, compared side by side")
    plan: dict[str, Any]


__all__ = ["AnyPlan", "BaselinePin", "PlanBody", "PlanOut", "PlanPreview", "PlanTemplate", "PointPreview", "ScalabilityPhase", "ToolName"]
