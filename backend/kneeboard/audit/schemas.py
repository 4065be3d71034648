"""Audit log responses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from kneeboard.db import as_utc


class AuditOut(BaseModel):
    """One entry."""

    model_config = ConfigDict(from_attributes=True)
    id: int
    at: datetime
    actor: str
    action: str
    kind: str
    obj_id: str | None
    name: str | None
    source: str | None
    details: dict[str, Any] | None

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)


class AuditPage(BaseModel):
    """A page of entries, newest first."""

    items: list[AuditOut]
    total: int
    limit: int
    offset: int
