"""Campaign, point and sample response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from kneeboard.analysis.hdr import without_intervals
from kneeboard.evidence.schemas import Evidence
from kneeboard.search.schemas import CriterionCapacity, SearchProgress, SearchResult
from kneeboard.plans.schemas import PointPreview
from kneeboard.states import CampaignStatus, PointStatus
from kneeboard.inputs import MAX_ID
from kneeboard.validators import Tag

class CampaignCreate(BaseModel):
    """Launch a stored plan."""

    model_config = ConfigDict(extra="forbid")

    plan_id: int = Field(ge=1, le=MAX_ID)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    agent: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,100}$", description="a registered agent (default: AGENT_NAME)")


class CampaignChange(BaseModel):
    """What may change on a stored campaign."""

    model_config = ConfigDict(extra="forbid")

    archived: bool | None = Field(default=None, description="archived campaigns are hidden from the default list")
    notes: str | None = Field(default=None, max_length=10_000, description="free text kept with the campaign")

    @model_validator(mode="after")
    def _something(self) -> CampaignChange:
        if self.archived is None and self.notes is None:
            raise ValueError("give archived or notes")
        return self


class Progress(BaseModel):
    """How far a campaign is: points done of total, elapsed and estimated remaining seconds."""

    done: int = Field(description="points that ended, in any way")
    total: int
    failed: int
    cancelled: int = Field(description="points cancelled or never run (cancel, ramp stop, crash)")
    elapsed_s: float | None
    eta_s: float | None
    running_point_id: int | None
    queue_position: int | None = Field(description="campaigns ahead of this one on its agent (0 = next or running)")
    search: SearchProgress | None = Field(default=None, description="the running search's trials and bracket (no ETA meanwhile)")


class Summary(BaseModel):
    """Headline figures of a campaign."""

    max_achieved_rate: float | None
    baseline_latency_ms: float | None
    loss_pct: float | None
    points_completed: int
    points_failed: int


class CampaignBrief(BaseModel):
    """A campaign in a list."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    tool: str
    status: CampaignStatus
    partial: bool
    error: str | None
    tags: list[str]
    agent: str
    source: str
    attempt: int
    archived: bool
    notes: str = ""
    plan_id: int | None
    target_id: int | None
    target: dict[str, Any]
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    progress: Progress
    summary: Summary


class CapacityRepeat(BaseModel):
    """One repetition's own capacity (what comparisons test)."""

    repeat: int
    kind: Literal["between", "at_least", "below"]
    value: float


class Knee(BaseModel):
    """The knee of the sweep (analysis/knee.py): where latency left its plateau, else where throughput stopped following
    the offered load; `rule_text` names the rule, `why` what decided it."""

    offered_rate: float | None = Field(description="the load axis: the offered rate, or the achieved rate of a closed-loop sweep")
    achieved_rate: float | None
    latency_avg_ms: float | None
    concurrency: int | None = None
    load_axis: Literal["offered", "achieved"] = "offered"
    rule: Literal["latency", "saturation", "k_times_baseline"] = Field(default="k_times_baseline", description="k_times_baseline: "
                                                                       "an analysis stored before the Kneedle rule")
    rule_text: str = "latency within k × the baseline latency at ≥ 95 % efficiency"
    why: str | None = None
    metric: str = Field(default="latency_avg_ms", description="the latency the knee is read on (the mean, or the SLO's tail percentile)")
    latency_ms: float | None = Field(default=None, description="that latency at the knee")
    threshold_ms: float | None = Field(default=None, description="the latency rule's line: max(k × its baseline, its baseline + the floor)")
    between: list[float | None] | None = Field(default=None, description="the last tested load within the rule and the first "
                                               "past it (null before the lowest load): the knee is interpolated between them")


class LoadRate(BaseModel):
    """A tested load and what it achieved."""

    offered_rate: float | None
    achieved_rate: float | None
    concurrency: int | None = None


class Drifted(BaseModel):
    """A series of the long point that drifted past its tolerance (last third against first)."""

    metric: str
    drift_pct: float
    tolerance_pct: float


class Ceiling(BaseModel):
    """The highest achieved rate of any load (repetitions averaged); `bound`: that load kept up, so it is a lower bound."""

    achieved_rate: float | None
    bound: bool = False
    kind: Literal["measured", "lower_bound"] | None = Field(default=None, description="measured: higher loads achieved less "
                                                             "or no more; lower_bound: the limit lies above")
    offered_rate: float | None = None
    concurrency: int | None = None
    past: list[LoadRate] = Field(default_factory=list, description="the higher loads tested and what they achieved")
    statement: str | None = Field(default=None, description="the ceiling as a reader should say it, with the loads past it")


class RequestsInFlight(BaseModel):
    """Little's law, requests in flight = throughput × latency (never the tool's clients or connections)."""

    at_ceiling: float | None = Field(default=None, description="the ceiling × the baseline latency (R0): the fewest in flight that reach it")
    baseline_ms: float | None = None
    at_knee: float | None = Field(default=None, description="the knee's achieved rate × its mean latency")


class SearchedCapacity(CriterionCapacity):
    """A search criterion's capacity over the search's repetitions: the mean, its interval and each repetition's."""

    label: str = Field(description='the criterion as said: "p99 latency ≤ 10 ms"')
    ci_low: float | None = None
    ci_high: float | None = None
    repeats: int
    per_repeat: list[CapacityRepeat] = Field(default_factory=list)
    resolution_pct: float | None = None
    variant: str | None = None
    statement: str


class UslFit(BaseModel):
    """Universal Scalability Law fit of the scalability points (Amdahl's p as the κ = 0 case)."""

    sigma: float | None
    kappa: float | None
    lambda_: float | None
    peak_concurrency: float | None
    peak_rate: float | None
    r2: float | None
    amdahl_p: float | None
    note: str | None


class Zone(BaseModel):
    """An SLA zone's offered-load range."""

    zone: Literal["green", "yellow", "red"]
    from_rate: float
    to_rate: float


class Stability(BaseModel):
    """Drift across the long point."""

    verdict: str
    rate_drift_pct: float | None
    latency_drift_pct: float | None
    latency_metric: str | None = Field(default=None, description="the per-interval latency the drift is of (mean, else median)")
    drifted: list[Drifted] = Field(default_factory=list, description="the series past their tolerance, the largest first")
    statement: str | None = Field(default=None, description='the verdict with what drifted: "drifting: p50 latency −35.7 %"')



class CapacityAtSlo(BaseModel):
    """The highest achieved rate that keeps a latency target and efficiency, with its kind.

    `kind` says what `value` is: "between" — interpolated between two tested loads (`low`
    kept the target, `high` broke it; `ci_low`/`ci_high` its bootstrap interval with
    repetitions); "at_least" — a lower bound, the SLO held at every load tested (`value` = `low`
    = the highest; `high` null); "below" — an upper bound, the SLO was already missed at the
    lowest load (`value` = `high` = the lowest; `low` null). `statement` says it as a reader
    should ("≥ 4,000 q/s — the SLO held at every load tested").
    """

    kind: Literal["between", "at_least", "below"]
    value: float | None = Field(description="null only in a share's pinned analysis from before kinds, whose bound was not kept")
    low: float | None = None
    high: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    metric: str
    limit_ms: float
    min_efficiency: float
    repeats: int
    per_repeat: list[CapacityRepeat] = Field(default_factory=list)
    how: str
    statement: str = ""
    slo_source: Literal["plan", "settings", "default"] = Field(default="default", description="where the SLO came from")

    @model_validator(mode="before")
    @classmethod
    def _stored_before_kinds(cls, data: Any) -> Any:
        """An analysis stored before kinds ({"capacity", "how"}) read in today's shape."""
        if isinstance(data, dict) and "kind" not in data and "capacity" in data:
            bound = str(data.get("how", "")).startswith("lower bound")
            data = {**data, "kind": "at_least" if bound else "between", "value": data["capacity"]}
            if data["value"] is None:
                data["kind"] = "below"
        return data


class GeneratorLimited(BaseModel):
    """A point whose offered load the generator did not send, left out of the analysis (analysis/generator.py)."""

    offered_rate: float | None
    concurrency: int | None = None
    phase: str | None = None
    repeat: int | None = None
    sent_pct: float | None = None
    cause: str | None = Field(default=None, description='"outstanding", "cpu", "sockets" or "unknown"')
    detail: str | None = None
    suggestion: str | None = None


class ConclusionSection(BaseModel):
    """One section of the conclusion's detail (analysis/conclusion.sections): the bottleneck, the ceiling, the knee…"""

    key: Literal["generator", "bottleneck", "searched", "capacity", "ceiling", "knee", "zones", "usl", "in_flight", "stability",
                 "oscillation"]
    title: str
    text: str


class VariantAnalysis(BaseModel):
    """The analysis of one variant's points (or of the whole campaign)."""

    capacity: CapacityAtSlo | None = None
    knee: Knee | None = None
    ceiling: Ceiling | None = None
    requests_in_flight: RequestsInFlight | None = None
    usl: UslFit | None = None
    zones: list[Zone] = Field(default_factory=list)
    zones_metric: str = Field(default="latency_avg_ms", description="the latency statistic the zones are read on")
    searched: list[SearchedCapacity] = Field(default_factory=list, description="the search's capacity per criterion (mean of repetitions)")
    stability: Stability | None = None
    oscillation: list[float] = Field(default_factory=list)
    generator_limited: list[GeneratorLimited] = Field(default_factory=list, description="points left out: the generator did not send their load")
    evidence: Evidence | None = Field(default=None, description="the server's own metrics per point and the bottleneck (docs/exporters.md)")
    conclusion: str = Field(default="", description="the sections' texts as one paragraph (kept for older readers)")
    headline: str = Field(default="", description="two or three sentences with the numbers: where it is fine, where it breaks, "
                          "what limits it (empty in an analysis stored before headlines)")
    sections: list[ConclusionSection] = Field(default_factory=list, description="the conclusion's detail, a section each")
    error: str | None = None


class Analysis(VariantAnalysis):
    """A campaign's analysis; `variants` holds one per variant when the plan has variants."""

    thresholds: dict[str, float | str | None] | None = None  # str: slo_metric
    version: int | None = Field(default=None, description="the analysis rules' version; older analyses are computed again when read")
    unit: str | None = Field(default=None, description="the rate unit its figures are in (the tool's)")
    variants: dict[str, VariantAnalysis] | None = None
    search: list[SearchResult] = Field(default_factory=list, description="the plan's search phases: capacity per criterion")
    until_decided: dict[str, Any] | None = Field(default=None, description="repeat until decided (runs/passes.py): each variant's "
                                                 "verdict after every pass, the passes, the seconds spent and why it stopped")


class HostSharing(BaseModel):
    """The load generator ran on the server's own host (environment.host_sharing): the report must say so."""

    shares_host: str = Field(description='the fact generator.shares_host: "yes (loopback)", "yes (lab namespace on this host)"…')
    sched_autogroup_enabled: str = Field(description="kernel.sched_autogroup_enabled when the campaign ran")
    note: str


class CampaignOut(CampaignBrief):
    """A campaign with its frozen plan, environment facts and analysis."""

    plan: dict[str, Any]
    environment: dict[str, Any]
    host_sharing: HostSharing | None = Field(default=None, description="set when the generator shared the server's host")
    analysis: Analysis | None
    baseline_campaign_id: int | None = Field(default=None, description="the baseline its plan pinned (reports compare against it)")
    grafana_url: str | None = Field(default=None, description="the Grafana dashboard over its time range (GRAFANA_URL set, the "
                                                              "campaign started; docs/prometheus.md)")


class CampaignPage(BaseModel):
    """One page of campaigns, newest first."""

    items: list[CampaignBrief]
    total: int
    limit: int
    offset: int = Field(description="0 when the page was asked for by cursor")
    next_cursor: str | None = Field(default=None, description="pass as `cursor` for the next (older) page; None on the last page")


class PointOut(PointPreview):
    """A point's parameters, status and metrics."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    campaign_id: int
    attempt: int
    status: PointStatus
    error: str | None
    warnings: list[str]
    metrics: dict[str, float | None]
    extra: dict[str, Any] = Field(description="the tool's extras; per-interval histograms are left out (GET /points/{id}/histogram reads them)")
    started_at: datetime | None
    ended_at: datetime | None

    _slim_extra = field_validator("extra")(classmethod(lambda cls, extra: without_intervals(extra or {})))


class PointEvidence(PointOut):
    """A point with its evidence: exact argv, tool version, exit code, raw output."""

    argv: list[str]
    tool_version: str | None
    exit_code: int | None
    stdout: str
    stderr: str
    parser_version: str | None
    agent: str | None


class SampleOut(BaseModel):
    """One interval of a series."""

    t: float
    series: str
    values: dict[str, float | None]


class SampleSeries(BaseModel):
    """A point's samples, downsampled to at most `max_points` per series."""

    point_id: int
    downsampled: bool
    max_points: int = Field(description="the cap applied per series: the asked max_points, or the server's cap when it asked for more")
    clamped: bool = Field(description="max_points asked for more than the server's cap and was lowered to it")
    samples: list[SampleOut]
