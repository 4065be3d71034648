"""Signing in: throttled per account and address (auth/throttle.py), the password checked in its own bounded
pool (auth/hashing.py), and a browser session opened. Async, so a flood of logins never holds the request
threads; each database step is a short transaction of its own, in the thread pool."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete
from starlette.concurrency import run_in_threadpool

from kneeboard.audit.service import record
from kneeboard.auth import hashing, throttle
from kneeboard.auth.credentials import digest, new_secret
from kneeboard.auth.errors import Unauthenticated
from kneeboard.auth.models import LoginSession
from kneeboard.auth.service import find_user
from kneeboard.auth.throttle import Locked
from kneeboard.config import get_settings
from kneeboard.db import session_scope, utcnow
from kneeboard.errors import TooMany


def password_hash_of(username: str) -> tuple[int | None, str | None]:
    """(id, stored hash) of an account, (None, None) when there is no such account."""
    with session_scope() as session:
        user = find_user(username, session=session)
        return (user.id, user.password_hash) if user else (None, None)


def login_failed(username: str, user_id: int | None, source: str | None, locked: Locked | None) -> None:
    """Audit a wrong password, and the lock it started, in a transaction of their own (the answer is an error)."""
    with session_scope() as session:
        record(session, username[:64], "login_failed", "user", user_id, username[:64], source)
        if locked is not None and locked.new:
            record(session, "throttle", "login_locked", "user", user_id, username[:64], source,
                   {"scope": locked.scope, "seconds": locked.retry_after_s})


def open_session(username: str, source: str | None) -> tuple[dict, str]:
    """Open a browser session for an account whose password was just checked; returns (who, the cookie's secret)."""
    with session_scope() as session:
        user = find_user(username, session=session)
        if user is None:  # deleted between the check and now
            raise Unauthenticated("wrong username or password")
        secret = new_secret()
        session.add(LoginSession(user_id=user.id, token_hash=digest(secret),
                                 expires_at=utcnow() + timedelta(seconds=get_settings().session_ttl_s)))  # fmt: skip
        session.execute(delete(LoginSession).where(LoginSession.expires_at < utcnow()))
        record(session, user.username, "login", "user", user.id, user.username, source)
        return {"username": user.username, "role": user.role, "via": "session", "user_id": user.id}, secret


async def login(username: str, password: str, *, source: str | None) -> tuple[dict, str]:
    """Check a password, throttled and in the hashing pool, and open a session; returns (who, the cookie's secret).

    A locked caller, or one beyond the hashing queue, gets TooMany before any database read or hash; a failure
    is counted, audited and raises Unauthenticated.
    """
    async with hashing.slot(source):  # first: a flood from one address is turned away without any I/O
        locked = await throttle.check(username, source)
        if locked is not None:
            raise TooMany(f"too many failed sign-ins; try again in {locked.retry_after_s} s", locked.retry_after_s)
        user_id, stored = await run_in_threadpool(password_hash_of, username)
        right = await hashing.verify(stored, password)
    if not right:
        started = await throttle.failed(username, source)
        await run_in_threadpool(login_failed, username, user_id, source, started)
        raise Unauthenticated("wrong username or password")
    await throttle.succeeded(username, source)
    return await run_in_threadpool(open_session, username, source)
