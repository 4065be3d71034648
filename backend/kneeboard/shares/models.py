"""Share and ShareCampaign tables: a hashed token bound to exactly the campaigns it names, with their pinned analyses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from kneeboard.db import Base, utcnow


class Share(Base):
    """A read-only link: one campaign's report or a comparison; only the token's SHA-256 is kept."""

    __tablename__ = "shares"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(20))  # "campaign" or "comparison"
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    campaigns: Mapped[list[ShareCampaign]] = relationship(
        back_populates="share", order_by="ShareCampaign.position", cascade="all, delete-orphan", passive_deletes=True
    )


class ShareCampaign(Base):
    """One campaign a share names, with its analysis as it was when shared (campaign_id is NULL once it is deleted)."""

    __tablename__ = "share_campaigns"

    id: Mapped[int] = mapped_column(primary_key=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("shares.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    campaign_id: Mapped[int | None] = mapped_column(ForeignKey("campaigns.id", ondelete="SET NULL"), nullable=True, index=True)
    campaign_name: Mapped[str] = mapped_column(String(200))
    analysis: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    analysis_version: Mapped[str] = mapped_column(String(64))

    share: Mapped[Share] = relationship(back_populates="campaigns")
