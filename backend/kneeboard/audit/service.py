"""Recording and reading the audit log. `record` joins the caller's transaction; `record_now` commits on its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kneeboard.audit.models import AuditEntry
from kneeboard.db import session_scope

if TYPE_CHECKING:
    from kneeboard.auth.principal import Principal


def record(session: Session, actor: str, action: str, kind: str, obj_id: object, name: str | None,
           source: str | None, details: dict[str, Any] | None = None) -> AuditEntry:  # fmt: skip
    """Add an entry to the caller's transaction (it is kept only if the change it describes is)."""
    entry = AuditEntry(actor=actor[:200], action=action, kind=kind, obj_id=None if obj_id is None else str(obj_id)[:64],
                       name=None if name is None else str(name)[:200], source=source, details=details)  # fmt: skip
    session.add(entry)
    return entry


def record_by(session: Session, who: Principal, action: str, kind: str, obj_id: object, name: str | None,
              details: dict[str, Any] | None = None) -> AuditEntry:  # fmt: skip
    """`record` with the actor and source address of the request's caller."""
    return record(session, who.actor, action, kind, obj_id, name, who.source, details)


def record_now(actor: str, action: str, kind: str, obj_id: object, name: str | None, source: str | None,
               details: dict[str, Any] | None = None) -> None:  # fmt: skip
    """Record in a transaction of its own, for events whose request fails (a refused login)."""
    with session_scope() as session:
        record(session, actor, action, kind, obj_id, name, source, details)


def list_entries(*, session: Session, actor: str | None = None, kind: str | None = None,
                 limit: int = 50, offset: int = 0) -> tuple[list[AuditEntry], int]:  # fmt: skip
    """Entries newest first, optionally by one actor or of one kind; returns (page, total)."""
    query = select(AuditEntry)
    if actor:
        query = query.where(AuditEntry.actor == actor)
    if kind:
        query = query.where(AuditEntry.kind == kind)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(limit).offset(offset))
    return list(rows), total
