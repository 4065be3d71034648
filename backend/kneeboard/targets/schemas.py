"""Target request and response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.exporters.schemas import Exporters
from kneeboard.promql.schemas import PrometheusSource
from kneeboard.validators import COMM, Host, MetricsUrl, Port, Tag

TargetKind = Literal["dns", "http", "net", "device"]
PROMETHEUS_HELP = "its server metrics read by PromQL from a registered Prometheus after each point (docs/prometheus.md)"
PROCESS_HELP = ("the server's command name (comm, at most 15 characters, as a plan's cpu_profile.process: `coredns`, `nginx`): "
                "the process monitor reads the CPU of every process of that name from /proc on a loopback or lab target; a remote "
                "one's is read by the observer on its host (the plan's cpu_profile.observer or its process monitor's observer)")
METRICS_URL_HELP = "the server's node_exporter, scraped by the node monitor: http://HOST:PORT/metrics (HOST must pass the target policy)"


class TargetCreate(BaseModel):
    """A new target."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    kind: TargetKind
    host: Host
    port: Port
    notes: str = Field(default="", max_length=5000)
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    metrics_url: MetricsUrl | None = Field(default=None, description=METRICS_URL_HELP)
    exporters: Exporters = Field(default_factory=list)
    prometheus: PrometheusSource | None = Field(default=None, description=PROMETHEUS_HELP)
    process: str | None = Field(default=None, pattern=COMM, description=PROCESS_HELP)


class TargetUpdate(BaseModel):
    """Changes to a target; absent fields stay as they are."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200)
    kind: TargetKind | None = None
    host: Host | None = None
    port: Port | None = None
    notes: str | None = Field(default=None, max_length=5000)
    tags: list[Tag] | None = Field(default=None, max_length=20)
    metrics_url: MetricsUrl | None = Field(default=None, description=METRICS_URL_HELP + "; null removes it")
    exporters: Exporters | None = None
    prometheus: PrometheusSource | None = Field(default=None, description=PROMETHEUS_HELP + "; null removes it")
    process: str | None = Field(default=None, pattern=COMM, description=PROCESS_HELP + "; null removes it")


class TargetOut(TargetCreate):
    """A stored target."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    created_at: datetime
