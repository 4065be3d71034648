"""The policy document: allowed networks and host names, and load caps per role."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from kneeboard.validators import check_host

CapRole = Literal["viewer", "operator", "admin"]


def _network(value: str) -> str:
    if "%" in value:
        raise ValueError("a network takes no IPv6 zone id")
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError:
        raise ValueError(f"{value!r} is not a network (CIDR such as 10.77.0.0/24 or ::1/128)") from None


def _host_pattern(value: str) -> str:
    name = value.lower().rstrip(".")
    bare = name[2:] if name.startswith("*.") else name
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        check_host(bare)
        return name
    raise ValueError("an address belongs in `networks` (as x.x.x.x/32), not in `hosts`")


Network = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_network)]
HostPattern = Annotated[str, Field(min_length=1, max_length=253), AfterValidator(_host_pattern)]


class RoleCaps(BaseModel):
    """Load limits for one role, below the configured MAX_* caps; absent = no extra cap."""

    model_config = ConfigDict(extra="forbid")

    max_rate: float | None = Field(default=None, gt=0, le=1e15)
    max_concurrency: int | None = Field(default=None, ge=1, le=10_000_000)
    max_duration_s: float | None = Field(default=None, gt=0, le=10_000_000)


class Policy(BaseModel):
    """Where load may go: `networks` (CIDR) and `hosts` (names, or `*.suffix`), plus caps per role.

    Link-local and metadata addresses are allowed only by a network entry inside their own range.
    """

    model_config = ConfigDict(extra="forbid")

    networks: list[Network] = Field(default_factory=list, max_length=256)
    hosts: list[HostPattern] = Field(default_factory=list, max_length=256)
    role_caps: dict[CapRole, RoleCaps] = Field(default_factory=dict)


class PolicyOut(Policy):
    """The policy as stored, with who changed it last (None: the built-in default)."""

    updated_by: str | None = None
    updated_at: datetime | None = None
