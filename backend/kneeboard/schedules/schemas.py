"""Schedule request and response bodies."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kneeboard.inputs import MAX_ID
from kneeboard.schedules import cron


class ScheduleFields(BaseModel):
    """What may change on a schedule."""

    model_config = ConfigDict(extra="forbid")

    cron: str | None = Field(default=None, max_length=120, description="five fields: minute hour day-of-month month day-of-week")
    timezone: str | None = Field(default=None, max_length=64, description="IANA name the cron is read in, e.g. Europe/Paris")
    enabled: bool | None = None
    thresholds: list[str] | None = Field(default=None, max_length=20, description="metric<value … checked on every completed point")
    baseline: str | None = Field(default=None, max_length=40, description="a campaign id or latest-pinned")

    @field_validator("cron")
    @classmethod
    def _cron(cls, value: str | None) -> str | None:
        return None if value is None else cron.check_cron(value)

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str | None) -> str | None:
        return None if value is None else cron.check_timezone(value)

    @field_validator("baseline")
    @classmethod
    def _baseline(cls, value: str | None) -> str | None:
        if value is not None and value != "latest-pinned" and not (value.isdigit() and 1 <= int(value) <= MAX_ID):
            raise ValueError("a campaign id or latest-pinned")
        return value


class ScheduleCreate(ScheduleFields):
    """A new schedule for a stored plan."""

    plan_id: int = Field(ge=1, le=MAX_ID)
    cron: str = Field(max_length=120, description="five fields: minute hour day-of-month month day-of-week")
    timezone: str = Field(default="UTC", max_length=64)
    enabled: bool = True
    thresholds: list[str] = Field(default_factory=list, max_length=20)


class ScheduleOut(BaseModel):
    """A schedule with its next run, its last run and what it missed while Kneeboard was down."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    plan_id: int
    cron: str
    timezone: str
    enabled: bool
    thresholds: list[str]
    baseline: str | None
    next_run_at: datetime | None
    last_run_at: datetime | None
    last_campaign_id: int | None
    last_status: str | None = None
    last_gate: str | None
    missed: int
    last_missed_at: datetime | None
    skipped: int
    created_by: str | None
    created_at: datetime
    updated_at: datetime
