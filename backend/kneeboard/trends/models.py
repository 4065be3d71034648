"""The TrendEntry and ChangePoint tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class TrendEntry(Base):
    """A completed campaign's headline figures, kept so a trend of 1,000 campaigns reads one narrow row each."""

    __tablename__ = "trend_entries"
    __table_args__ = (Index("ix_trend_entries_plan", "plan_id", "ended_at"), Index("ix_trend_entries_target_tool", "target_id", "tool", "ended_at"))

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True)
    plan_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tool: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(200))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    capacity: Mapped[float | None] = mapped_column(Float, nullable=True)
    capacity_low: Mapped[float | None] = mapped_column(Float, nullable=True)
    capacity_high: Mapped[float | None] = mapped_column(Float, nullable=True)
    capacity_kind: Mapped[str | None] = mapped_column(String(12), nullable=True)  # between, at_least, below
    capacity_bound: Mapped[float | None] = mapped_column(Float, nullable=True)  # the bound an at_least/below figure is
    max_achieved_rate: Mapped[float | None] = mapped_column(Float, nullable=True)
    latency_p50_ms: Mapped[float | None] = mapped_column(Float, nullable=True)
    latency_p99_ms: Mapped[float | None] = mapped_column(Float, nullable=True)
    loss_pct: Mapped[float | None] = mapped_column(Float, nullable=True)
    server_cost: Mapped[float | None] = mapped_column(Float, nullable=True)  # the server's CPU-s per unit of work
    server_method: Mapped[str | None] = mapped_column(String(16), nullable=True)  # how it was read (headline.server_method)


class ChangePoint(Base):
    """A change in a plan's series of one metric, between two consecutive completed campaigns."""

    __tablename__ = "change_points"
    __table_args__ = (UniqueConstraint("scope", "metric", "after_campaign_id", name="uq_change_points_scope_metric_after"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(80), index=True)  # plan:<id>
    metric: Mapped[str] = mapped_column(String(40))
    before_campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    after_campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    mean_before: Mapped[float] = mapped_column(Float)
    mean_after: Mapped[float] = mapped_column(Float)
    diff: Mapped[float] = mapped_column(Float)
    ci_low: Mapped[float] = mapped_column(Float)
    ci_high: Mapped[float] = mapped_column(Float)
    change_pct: Mapped[float | None] = mapped_column(Float, nullable=True)
    pvalue: Mapped[float] = mapped_column(Float)
    direction: Mapped[str] = mapped_column(String(8))  # better or worse
    differences: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    detected_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
