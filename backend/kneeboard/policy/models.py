"""The TargetPolicy table: one row holding the admin-managed policy document."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class TargetPolicy(Base):
    """The target policy (row id 1); absent until an admin first changes the default."""

    __tablename__ = "target_policy"

    id: Mapped[int] = mapped_column(primary_key=True)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
