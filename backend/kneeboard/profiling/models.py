"""A point's stored CPU profile (one row per point, its folded stacks at most 1 MiB)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class CpuProfile(Base):
    """The folded stacks of the plan's process over one point's steady window, and what they were taken from."""

    __tablename__ = "cpu_profiles"

    point_id: Mapped[int] = mapped_column(ForeignKey("points.id", ondelete="CASCADE"), primary_key=True)
    process: Mapped[str] = mapped_column(String(15))
    frequency_hz: Mapped[int] = mapped_column(Integer)
    window_s: Mapped[float] = mapped_column(Float)
    samples: Mapped[int] = mapped_column(Integer)
    all_samples: Mapped[int] = mapped_column(Integer)
    stack_depth: Mapped[str | None] = mapped_column(String(30), nullable=True)
    stacks: Mapped[int] = mapped_column(Integer)
    dropped_stacks: Mapped[int] = mapped_column(Integer, default=0)
    dropped_samples: Mapped[int] = mapped_column(Integer, default=0)
    folded: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
