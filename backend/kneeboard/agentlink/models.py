"""The AgentCredential table: one secret bound to one agent name (only its digest and first characters are kept)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


OBSERVE = "observe"  # the role of an observer's credential (the other is "load")


class AgentCredential(Base):
    """What a remote agent presents: it may act as `agent` (a load agent, or an observer) and as nothing else; revoked
    by deleting the row."""

    __tablename__ = "agent_credentials"

    id: Mapped[int] = mapped_column(primary_key=True)
    agent: Mapped[str] = mapped_column(String(100), index=True)
    role: Mapped[str] = mapped_column(String(10), default="load", server_default="load")  # "load", or "observe": an observer's
    prefix: Mapped[str] = mapped_column(String(12))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
