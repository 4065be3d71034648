"""An allow-list as the API reads and writes it."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.policy.schemas import HostPattern, Network


class AllowList(BaseModel):
    """Where webhooks may go: networks (CIDR) and host names (or `*.suffix`); empty by default (nowhere)."""

    model_config = ConfigDict(extra="forbid")

    networks: list[Network] = Field(default_factory=list, max_length=256)
    hosts: list[HostPattern] = Field(default_factory=list, max_length=256)


class AllowListOut(AllowList):
    """The allow-list in force."""

    updated_by: str | None = None
    updated_at: datetime | None = None
