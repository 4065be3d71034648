"""Device profile bodies."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kneeboard.config import get_settings


class ProfileCreate(BaseModel):
    """A profile to upload: a name (used in plans as params.profile) and the JSON document."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
    document: dict[str, Any]

    @field_validator("document")
    @classmethod
    def _capped(cls, value: dict[str, Any]) -> dict[str, Any]:
        size, cap = len(json.dumps(value)), get_settings().max_profile_bytes
        if size > cap:
            raise ValueError(f"the profile is {size} bytes, more than MAX_PROFILE_BYTES={cap}")
        return value


class ProfileOut(ProfileCreate):
    """A stored profile with what `devsim profile check` said of it."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    summary: str
    created_at: datetime
