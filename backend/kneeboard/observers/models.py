"""The ObserveAssignment table: one per profiled point and observer, from assignment to report."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class ObserveAssignment(Base):
    """What one observer is asked to watch (a CPU profile) or do (host events) at one point (times on the server's clock, epoch seconds), and its answer.

    status: assigned → acknowledged → reported; closed once the worker has read it or given up on it."""

    __tablename__ = "observe_assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    observer: Mapped[str] = mapped_column(String(100), index=True)
    campaign_id: Mapped[int] = mapped_column(Integer)
    point_id: Mapped[int] = mapped_column(ForeignKey("points.id", ondelete="CASCADE"), index=True)
    attempt: Mapped[int] = mapped_column(Integer)
    process: Mapped[str | None] = mapped_column(String(15), nullable=True)  # a CPU profile's; null for events
    frequency_hz: Mapped[int | None] = mapped_column(Integer, nullable=True)
    events: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)  # host actions to run (observers/host.py)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # host settings to apply (observers/nic.py)
    start_at: Mapped[float] = mapped_column(Float)  # the load starts
    since: Mapped[float] = mapped_column(Float)  # the steady window
    until: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(20), default="assigned")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    acked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    process_seen: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    reported_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
