"""The Plan table: a validated plan stored as data."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class Plan(Base):
    """A reusable plan; `body` holds the plan's shape as validated JSON."""

    __tablename__ = "plans"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    tool: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[int] = mapped_column(ForeignKey("targets.id"))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    baseline_campaign_id: Mapped[int | None] = mapped_column(ForeignKey("campaigns.id", ondelete="SET NULL", use_alter=True,
                                                                        name="fk_plans_baseline_campaign"), nullable=True)  # fmt: skip
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    def out(self) -> dict[str, Any]:
        """The plan's shape with its id and times."""
        return {**self.body, "id": self.id, "created_at": self.created_at, "updated_at": self.updated_at,
                "baseline_campaign_id": self.baseline_campaign_id}
