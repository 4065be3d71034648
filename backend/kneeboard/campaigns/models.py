"""Campaign, Point and Sample tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Text, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from kneeboard.db import Base, utcnow
from kneeboard.states import CampaignStatus, PointStatus


class Campaign(Base):
    """One launch of a plan, with a frozen copy of it and of its target."""

    __tablename__ = "campaigns"
    # the ids a list shows (not archived): counts and deep pages read this index alone
    __table_args__ = (Index("ix_campaigns_shown", "id", postgresql_where=text("NOT archived"), sqlite_where=text("NOT archived")),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    tool: Mapped[str] = mapped_column(String(20), index=True)
    plan_id: Mapped[int | None] = mapped_column(ForeignKey("plans.id", ondelete="SET NULL"), nullable=True, index=True)
    target_id: Mapped[int | None] = mapped_column(ForeignKey("targets.id", ondelete="SET NULL"), nullable=True, index=True)
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    target: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), index=True, default=CampaignStatus.QUEUED)
    partial: Mapped[bool] = mapped_column(default=False)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    agent: Mapped[str] = mapped_column(String(100))
    source: Mapped[str] = mapped_column(String(200), default="live")
    environment: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    analysis: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(120), nullable=True)  # the agent instance running it
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    dispatched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    attempt: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    archived: Mapped[bool] = mapped_column(default=False, server_default=false(), index=True)
    notes: Mapped[str] = mapped_column(Text, default="", server_default="")
    # stored by campaigns/progress.store whenever points change, so lists never load points
    points_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points_done: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points_failed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points_cancelled: Mapped[int | None] = mapped_column(Integer, nullable=True)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    points: Mapped[list[Point]] = relationship(
        back_populates="campaign", order_by="Point.seq", cascade="all, delete-orphan", passive_deletes=True
    )
    tag_rows: Mapped[list[CampaignTag]] = relationship(cascade="all, delete-orphan", passive_deletes=True)

    @validates("tags")
    def _index_tags(self, _key: str, tags: list[str]) -> list[str]:
        """Keep the campaign_tags rows (what the tag filter reads) equal to `tags`."""
        self.tag_rows = [CampaignTag(tag=tag) for tag in sorted(set(tags or []))]
        return tags


class CampaignTag(Base):
    """One tag of a campaign, as a row the tag filter can use an index for (campaigns.tags stays the display copy)."""

    __tablename__ = "campaign_tags"
    __table_args__ = (Index("ix_campaign_tags_tag_campaign", "tag", "campaign_id"),)

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True)
    tag: Mapped[str] = mapped_column(Text, primary_key=True)


class Point(Base):
    """One tool execution with its parameters, status, metrics and evidence."""

    __tablename__ = "points"
    __table_args__ = (Index("ix_points_campaign_seq", "campaign_id", "seq", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str | None] = mapped_column(String(80), nullable=True)
    phase_index: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(20))
    concurrency: Mapped[int] = mapped_column(Integer)
    offered_rate: Mapped[float | None] = mapped_column(Float, nullable=True)
    duration_s: Mapped[float] = mapped_column(Float)
    repeat: Mapped[int] = mapped_column(Integer, default=0)
    attempt: Mapped[int] = mapped_column(Integer, default=1, server_default="1")  # which run of the campaign measured it
    status: Mapped[str] = mapped_column(String(20), default=PointStatus.PENDING)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    warnings: Mapped[list[str]] = mapped_column(JSON, default=list)
    metrics: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    argv: Mapped[list[str]] = mapped_column(JSON, default=list)
    tool_version: Mapped[str | None] = mapped_column(String(100), nullable=True)
    exit_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stdout: Mapped[str] = mapped_column(Text, default="")
    stderr: Mapped[str] = mapped_column(Text, default="")
    parser_version: Mapped[str | None] = mapped_column(String(20), nullable=True)
    agent: Mapped[str | None] = mapped_column(String(100), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def rate_from(self) -> str | None:
        """Where a derived rate came from (runs/derived.py); None for a fixed rate."""
        return ((self.extra or {}).get("rate_from") or {}).get("text")

    campaign: Mapped[Campaign] = relationship(back_populates="points")


class SampleRow(Base):
    """One interval of a point's series (the tool's own, or a monitor's)."""

    __tablename__ = "samples"
    __table_args__ = (Index("ix_samples_point_series_t", "point_id", "series", "t"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    point_id: Mapped[int] = mapped_column(ForeignKey("points.id", ondelete="CASCADE"))
    series: Mapped[str] = mapped_column(String(60), default="point")
    t: Mapped[float] = mapped_column(Float)
    values: Mapped[dict[str, Any]] = mapped_column(JSON)


