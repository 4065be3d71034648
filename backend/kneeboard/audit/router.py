"""GET /audit: the log, for admins (main.py includes it behind `require("admin")`: audit/ is below auth/, whose
logins and routes it records)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from kneeboard.audit import service
from kneeboard.audit.schemas import AuditPage
from kneeboard.deps import SessionDep

router = APIRouter(prefix="/audit", tags=["audit"])


@router.get("", response_model=AuditPage)
def list_audit(
    session: SessionDep,
    actor: str | None = Query(default=None, max_length=200),
    kind: str | None = Query(default=None, max_length=40),
    limit: int = Query(default=50, ge=1, le=500),
    offset: int = Query(default=0, ge=0, le=10_000_000),
):
    """Who changed what and when, newest first."""
    rows, total = service.list_entries(session=session, actor=actor, kind=kind, limit=limit, offset=offset)
    return {"items": rows, "total": total, "limit": limit, "offset": offset}
