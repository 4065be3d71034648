"""From a request's credentials to a Principal: a bearer token (or KB_ADMIN_TOKEN), else the session cookie. Bearer
secrets of another kind (an agent's credential: agentlink/credentials.py) are resolved by whoever registered their
prefix at start (kneeboard/extensions.py); auth/ imports none of them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select

from kneeboard.auth.credentials import TOKEN_PREFIX, digest, same_secret
from kneeboard.auth.models import ApiToken, LoginSession, User
from kneeboard.auth.principal import ENV_ADMIN, Principal
from kneeboard.auth.roles import Role
from kneeboard.auth.tokens import effective_role
from kneeboard.config import get_settings
from kneeboard.db import as_utc, session_scope, utcnow

SESSION_COOKIE = "kb_session"
MAX_SECRET = 512
LAST_USE_EVERY = timedelta(minutes=1)
BEARERS: dict[str, Callable[[str, str | None], Principal | None]] = {}  # a secret's prefix -> who it belongs to


def register_bearer(prefix: str, resolve: Callable[[str, str | None], Principal | None]) -> None:
    """Resolve bearer secrets starting with `prefix` with `resolve(secret, source)` (registering again replaces it)."""
    BEARERS[prefix] = resolve


def _usable(secret: str | None) -> bool:
    return bool(secret) and len(secret) <= MAX_SECRET


def from_bearer(secret: str, source: str | None) -> Principal | None:
    """The owner of a bearer token, or None when it is unknown, revoked or expired."""
    if not _usable(secret):
        return None
    admin_token = get_settings().kb_admin_token
    if admin_token and same_secret(secret, admin_token):
        return Principal(ENV_ADMIN, Role.admin.value, "env", source=source)
    for prefix, resolve in BEARERS.items():
        if secret.startswith(prefix):
            return resolve(secret, source)
    if not secret.startswith(TOKEN_PREFIX):
        return None
    with session_scope() as session:
        row = session.execute(select(ApiToken, User).join(User).where(ApiToken.token_hash == digest(secret))).first()
        if row is None or (row[0].expires_at is not None and as_utc(row[0].expires_at) <= utcnow()):
            return None
        token, user = row
        now = utcnow()
        if token.last_used_at is None or now - as_utc(token.last_used_at) > LAST_USE_EVERY:
            token.last_used_at = now  # to the minute: not a write on every request
        return Principal(user.username, effective_role(user.role, token.role), "token", user.id, token.id, token.name, source)


def from_cookie(secret: str, source: str | None) -> Principal | None:
    """The user of a live browser session, or None."""
    if not _usable(secret):
        return None
    with session_scope() as session:
        row = session.execute(select(LoginSession, User).join(User).where(LoginSession.token_hash == digest(secret))).first()
        if row is None or as_utc(row[0].expires_at) <= utcnow():
            return None
        login, user = row
        return Principal(user.username, user.role, "session", user.id, login.id, source=source)
