"""The PrometheusServer and PrometheusAllowList tables."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow
from kneeboard.outbound.models import AllowListColumns


class PrometheusServer(Base):
    """A team's Prometheus Kneeboard may query. Its credential never leaves this row except as a request header."""

    __tablename__ = "prometheus_servers"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    url: Mapped[str] = mapped_column(String(2000))
    auth: Mapped[str] = mapped_column(String(10), default="none")  # none, bearer, basic
    username: Mapped[str | None] = mapped_column(String(200), nullable=True)  # basic only
    credential: Mapped[str | None] = mapped_column(String(2000), nullable=True)  # the token or the password
    scrape_interval_s: Mapped[float] = mapped_column(Float, default=15.0)
    remote_write: Mapped[bool] = mapped_column(default=False)  # every settled campaign's results are sent to it
    created_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class PrometheusAllowList(AllowListColumns, Base):
    """Where a Prometheus may be (row id 1): networks and host names, apart from the target policy and the webhooks'."""

    __tablename__ = "prometheus_allowlist"
