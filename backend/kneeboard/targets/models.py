"""The Target table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class Target(Base):
    """A system under test: a DNS server, an HTTP server, an iperf3 server, a device platform."""

    __tablename__ = "targets"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    host: Mapped[str] = mapped_column(String(253))
    port: Mapped[int]
    notes: Mapped[str] = mapped_column(Text, default="")
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    metrics_url: Mapped[str | None] = mapped_column(String(300), default=None)  # its node_exporter, for the node monitor
    exporters: Mapped[list[dict]] = mapped_column(JSON, default=list)  # [{name, url, packs}], for exporter monitors
    prometheus: Mapped[dict | None] = mapped_column(JSON, nullable=True, default=None)  # {server, selector, packs, queries}: PromQL
    process: Mapped[str | None] = mapped_column(String(15), nullable=True, default=None)  # the server's comm, for the process monitor
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
