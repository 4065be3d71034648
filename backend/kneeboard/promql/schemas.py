"""A Prometheus server as an admin registers it and as the API shows it (never its credential), and a target's PromQL
source (which server, a label selector with query packs, or its own queries)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, SecretStr, model_validator

from kneeboard.exporters.packs import QUERY_NAME
from kneeboard.exporters.schemas import PackName
from kneeboard.promql.queries import parse_selector
from kneeboard.tools.units import url_host
from kneeboard.validators import check_host, split_url

SERVER_NAME = r"^[a-z][a-z0-9_-]{0,39}$"
Credential = Annotated[SecretStr, Field(min_length=1, max_length=2000)]


def _base_url(value: str) -> str:
    """http(s)://HOST[:PORT][/PATH] with no user, query or fragment; returned without a trailing slash."""
    parts, port = split_url(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("credentials do not belong in the URL: give bearer_token or basic (they are never shown again)")
    if parts.query or parts.fragment or port == 0:
        raise ValueError("must be http(s)://HOST[:PORT][/PATH] with no query or fragment")
    host = url_host(check_host(parts.hostname))
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}{parts.path.rstrip('/')}"


Url = Annotated[str, Field(min_length=8, max_length=2000), AfterValidator(_base_url)]


class Basic(BaseModel):
    """HTTP basic authentication: a user and a password (never shown again)."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=200, pattern=r"^[^:\x00-\x1f\x7f]+$")
    password: Credential


class _Credential(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bearer_token: Credential | None = Field(default=None, description="sent as Authorization: Bearer; never shown again")
    basic: Basic | None = Field(default=None, description="sent as HTTP basic authentication; the password is never shown again")

    @model_validator(mode="after")
    def _one_credential(self):  # noqa: ANN202 - pydantic's
        if self.bearer_token is not None and self.basic is not None:
            raise ValueError("give bearer_token or basic, not both")
        return self


class ServerCreate(_Credential):
    """A team's Prometheus: its base URL (its host on the Prometheus allow-list) and an optional credential."""

    name: str = Field(pattern=SERVER_NAME, description="what a target's `prometheus.server` names")
    url: Url = Field(description="the base URL, e.g. https://prometheus.example.com or http://10.0.0.9:9090")
    scrape_interval_s: float = Field(default=15.0, ge=0.1, le=300,
                                     description="how often it scrapes the target's exporters: the rate window is two of them, "
                                                 "and each point waits one out (plus a second) before it is read")
    remote_write: bool = Field(default=False, description="send every settled campaign's results here by remote write "
                                                          "(its receiver on: --web.enable-remote-write-receiver)")


class ServerUpdate(_Credential):
    """Changes to a registered Prometheus; a credential given replaces the stored one."""

    url: Url | None = None
    scrape_interval_s: float | None = Field(default=None, ge=0.1, le=300)
    remote_write: bool | None = None
    remove_credential: bool = Field(default=False, description="forget the stored credential")


class ServerOut(BaseModel):
    """A registered Prometheus as shown: whether it has a credential, never the credential."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    url: str
    auth: Literal["none", "bearer", "basic"]
    username: str | None
    scrape_interval_s: float
    remote_write: bool
    created_by: str | None
    created_at: datetime
    updated_at: datetime


def _selector(value: str) -> str:
    parse_selector(value)
    return value.strip()


class CustomQuery(BaseModel):
    """One PromQL expression of the target's own: its series is server.promql.<name>."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=QUERY_NAME)
    query: str = Field(min_length=1, max_length=2000, pattern=r"^[^\x00-\x1f\x7f]+$", description="PromQL, evaluated per step")
    unit: str = Field(min_length=1, max_length=20)
    better: Literal["higher", "lower"] | None = None
    by: list[Annotated[str, Field(pattern=r"^[a-zA-Z_][a-zA-Z0-9_]{0,99}$")]] = Field(
        default_factory=list, max_length=2, description="the answer's labels that key its values (one series: `value`)")


class PrometheusSource(BaseModel):
    """Where a target's server metrics come from by PromQL: a registered Prometheus, and the query packs (read with the
    selector) and/or the target's own queries."""

    model_config = ConfigDict(extra="forbid")
    server: str = Field(pattern=SERVER_NAME, description="a registered Prometheus (GET /api/v1/prometheus)")
    selector: Annotated[str, Field(max_length=1000), AfterValidator(_selector)] = Field(
        default="", description='the target\'s series in that Prometheus, e.g. {job="coredns",instance="10.0.0.5:9153"}')
    packs: list[PackName] = Field(default_factory=list, max_length=8, description="query packs read with the selector")
    queries: list[CustomQuery] = Field(default_factory=list, max_length=20)

    @model_validator(mode="after")
    def _something_to_read(self) -> PrometheusSource:
        if not self.packs and not self.queries:
            raise ValueError("name packs or queries to read")
        names = [q.name for q in self.queries]
        if dup := next((n for n in names if names.count(n) > 1), None):
            raise ValueError(f"queries: {dup!r} appears twice")
        if len(set(self.packs)) != len(self.packs):
            raise ValueError("packs: each pack once")
        return self
