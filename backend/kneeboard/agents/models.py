"""The Agent table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from kneeboard.db import Base, utcnow


class Agent(Base):
    """A load-generator host; its name is its Celery queue."""

    __tablename__ = "agents"

    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    hostname: Mapped[str] = mapped_column(String(253))
    tools: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    last_heartbeat: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # remote agents: cpus, addresses, clock offset
