"""Recording and reading the audit log. `record` joins the caller's transaction; `record_now` commits on its own;
`record_refusal` writes a refused request once per caller and what it tried per window, counting the rest."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any, Protocol

import redis

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kneeboard.audit.models import AuditEntry
from kneeboard.config import get_settings
from kneeboard.db import session_scope

log = logging.getLogger(__name__)
REFUSAL_WINDOW_S = 60  # a caller's same refused request is written once per minute; the repeats are counted
REFUSALS_PER_ACTOR = 30  # and at most this many refusal rows per actor per minute, whatever it tried


class Caller(Protocol):
    """Who made a request, as the audit reads it (auth's Principal is one; audit/ is below auth/ and imports none of it)."""

    @property
    def actor(self) -> str:
        """Who, as the log names them (e.g. a user's name, or agent:<name>)."""

    @property
    def source(self) -> str | None:
        """The address the request came from."""


def record(session: Session, actor: str, action: str, kind: str, obj_id: object, name: str | None,
           source: str | None, details: dict[str, Any] | None = None) -> AuditEntry:  # fmt: skip
    """Add an entry to the caller's transaction (it is kept only if the change it describes is)."""
    entry = AuditEntry(actor=actor[:200], action=action, kind=kind, obj_id=None if obj_id is None else str(obj_id)[:64],
                       name=None if name is None else str(name)[:200], source=source, details=details)  # fmt: skip
    session.add(entry)
    return entry


def record_by(session: Session, who: Caller, action: str, kind: str, obj_id: object, name: str | None,
              details: dict[str, Any] | None = None) -> AuditEntry:  # fmt: skip
    """`record` with the actor and source address of the request's caller."""
    return record(session, who.actor, action, kind, obj_id, name, who.source, details)


def record_now(actor: str, action: str, kind: str, obj_id: object, name: str | None, source: str | None,
               details: dict[str, Any] | None = None) -> None:  # fmt: skip
    """Record in a transaction of its own, for events whose request fails (a refused login)."""
    with session_scope() as session:
        record(session, actor, action, kind, obj_id, name, source, details)


@lru_cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(get_settings().redis_url, socket_timeout=2.0, socket_connect_timeout=2.0)


def record_refusal(actor: str, kind: str, obj_id: object, name: str | None, source: str | None,
                   details: dict[str, Any] | None = None) -> None:  # fmt: skip
    """Audit a refused request (action "refused"): once per (actor, kind, object, what) per REFUSAL_WINDOW_S, and at
    most REFUSALS_PER_ACTOR rows an actor per window. A credential hammering what it may not do writes a few rows a
    minute; the next row written carries `repeated`, the refusals not written since. Without Redis every one is."""
    key, budget = f"kneeboard:audit:refused:{actor}:{kind}:{obj_id}:{name}"[:400], f"kneeboard:audit:refused:{actor}"[:300]
    try:
        client = _redis()
        if not client.set(key, 1, nx=True, ex=REFUSAL_WINDOW_S):
            _count(client, f"{key}:repeated")
            return
        spent = client.incr(budget)
        if spent == 1:
            client.expire(budget, REFUSAL_WINDOW_S)
        if spent > REFUSALS_PER_ACTOR:
            _count(client, f"{budget}:repeated")
            return
        repeated = int(client.getdel(f"{key}:repeated") or 0) + int(client.getdel(f"{budget}:repeated") or 0)
    except redis.RedisError as exc:
        log.warning("refusal counting unavailable (%s): writing every refusal", exc)
        repeated = 0
    record_now(actor, "refused", kind, obj_id, name, source, {**(details or {}), **({"repeated": repeated} if repeated else {})})


def _count(client: redis.Redis, key: str) -> None:
    client.incr(key)
    client.expire(key, 86_400)


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
