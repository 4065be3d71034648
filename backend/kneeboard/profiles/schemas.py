"""Device profile bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ProfileCreate(BaseModel):
    """A profile to upload: a name (used in plans as params.profile) and the JSON document."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    document: dict[str, Any]


class ProfileOut(ProfileCreate):
    """A stored profile with what `devsim profile check` said of it."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    summary: str
    created_at: datetime
