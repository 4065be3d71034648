"""devsim's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MAX_SOURCE_IPS = 16


class DevsimParams(BaseModel):
    """devsim's own parameters: the device profile and connection behaviour."""

    model_config = ConfigDict(extra="forbid", strict=True, title="devsim parameters")
    profile: str = Field(default="singlelight", pattern=r"^[A-Za-z0-9_.-]{1,64}$", title="Device profile",
                         description="singlelight (built in) or the name of an uploaded profile")
    start_id: int = Field(default=1, ge=1, le=999_999_999_999, title="First device id")
    ramp_per_s: int = Field(default=5000, ge=1, le=1_000_000, title="Connects per second")
    login_timeout_s: float = Field(default=5.0, ge=0.1, le=120, title="Login timeout (s)")
    procs: int = Field(default=1, ge=1, le=16, title="Processes")
    source_ips: int = Field(default=1, ge=1, le=MAX_SOURCE_IPS, title="Source addresses",
                            description="More than one only towards a loopback target (127.0.0.x)")
