"""Webhook bodies: a destination, the admin's allow-list of destinations, a delivery."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from kneeboard.inputs import MAX_ID
from kneeboard.validators import check_host

Event = Literal["regression", "change_point", "action"]  # action: a point event that POSTs once (events/actions.py)


def _url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise ValueError("credentials do not belong in the URL (the message is signed with the webhook's secret)")
    check_host(parts.hostname)
    try:
        parts.port
    except ValueError:
        raise ValueError("the port is not a number from 0 to 65535") from None
    return value


Url = Annotated[str, Field(min_length=8, max_length=2000), AfterValidator(_url)]


class WebhookCreate(BaseModel):
    """Tell `url` about one plan's campaigns or one schedule's runs."""

    model_config = ConfigDict(extra="forbid")

    url: Url
    plan_id: int | None = Field(default=None, ge=1, le=MAX_ID)
    schedule_id: int | None = Field(default=None, ge=1, le=MAX_ID)
    events: list[Event] = Field(default_factory=lambda: ["regression", "change_point"], min_length=1, max_length=2)

    @model_validator(mode="after")
    def _one_subject(self) -> WebhookCreate:
        if (self.plan_id is None) == (self.schedule_id is None):
            raise ValueError("give exactly one of plan_id or schedule_id")
        return self


class WebhookOut(BaseModel):
    """A webhook as listed (its secret is shown once, when it is made)."""

    id: int
    url: str
    plan_id: int | None
    schedule_id: int | None
    events: list[Event]
    enabled: bool
    created_by: str | None
    created_at: datetime


class WebhookCreated(WebhookOut):
    """A new webhook with its signing secret: keep it, it is not shown again."""

    secret: str


class DeliveryOut(BaseModel):
    """One message of the outbox."""

    id: int
    webhook_id: int
    event: Event
    status: Literal["pending", "sending", "delivered", "failed"]
    attempts: int
    next_attempt_at: datetime
    last_status: int | None
    last_error: str | None
    delivered_at: datetime | None
    created_at: datetime
    payload: dict
