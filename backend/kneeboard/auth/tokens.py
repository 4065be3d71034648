"""API tokens: created per user and shown once, listed by their first characters, revoked by id."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kneeboard.auth.credentials import TOKEN_PREFIX, digest, new_secret
from kneeboard.auth.errors import Forbidden
from kneeboard.auth.models import ApiToken, User
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import RANK, Role
from kneeboard.auth.schemas import TokenCreate
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.errors import NotFound, invalid


RANK_BY_NAME = {role.value: rank for role, rank in RANK.items()}


def describe(token: ApiToken) -> dict:
    """A token as listed (never the secret)."""
    return {"id": token.id, "name": token.name, "prefix": token.prefix, "username": token.user.username,
            "created_at": token.created_at, "expires_at": token.expires_at, "role": token.role, "last_used_at": token.last_used_at}  # fmt: skip


def _own_user(principal: Principal) -> int:
    if principal.user_id is None:
        raise Forbidden("the KB_ADMIN_TOKEN is not an account; create a user (POST /api/v1/users) and use its tokens")
    return principal.user_id


def issue(user: User, body: TokenCreate, *, session: Session, limit: ApiToken | None = None) -> tuple[ApiToken, str]:
    """A new token for `user` (within the `limit` token's lifetime and role, when a token creates it); returns
    (row, secret). The secret is never stored."""
    if session.scalar(select(ApiToken.id).where(ApiToken.user_id == user.id, ApiToken.name == body.name)) is not None:
        raise invalid(("name",), f"a token named {body.name!r} already exists")
    ceiling = Role(effective_role(user.role, limit.role if limit else None))
    if body.role is not None and RANK[body.role] > RANK[ceiling]:
        raise invalid(("role",), f"a token cannot have a higher role than its creator ({ceiling.value})")
    lifetime = timedelta(seconds=body.expires_in_s) if body.expires_in_s else timedelta(days=get_settings().token_ttl_days)
    expires = utcnow() + lifetime
    if limit is not None and limit.expires_at is not None and expires > as_utc(limit.expires_at):
        if body.expires_in_s:
            raise invalid(("expires_in_s",), f"a token cannot outlive the token that creates it (it expires {limit.expires_at:%Y-%m-%d %H:%M} UTC)")
        expires = as_utc(limit.expires_at)
    role = body.role.value if body.role is not None and body.role is not Role(user.role) else None
    token = ApiToken(user=user, name=body.name, prefix=secret_prefix(secret := new_secret(TOKEN_PREFIX)), token_hash=digest(secret),
                     expires_at=expires, role=role)  # fmt: skip
    session.add(token)
    session.flush()
    return token, secret


def create_token(principal: Principal, body: TokenCreate, *, session: Session) -> tuple[ApiToken, str]:
    """A new token for the caller's own account, bounded by the caller's token when a token is asking."""
    limit = session.get(ApiToken, principal.credential_id) if principal.via == "token" and principal.credential_id else None
    return issue(session.get_one(User, _own_user(principal)), body, session=session, limit=limit)


def effective_role(user_role: str, token_role: str | None) -> str:
    """A token's role: its own when it has one below its owner's now, else its owner's (a demotion demotes it)."""
    if token_role is None or token_role not in RANK_BY_NAME or RANK_BY_NAME[token_role] > RANK_BY_NAME.get(user_role, 0):
        return user_role
    return token_role


def secret_prefix(secret: str) -> str:
    """The first characters a token is listed by."""
    return secret[:10]


def revoke_all(user_id: int, *, session: Session) -> int:
    """Delete every token of an account; returns how many."""
    return session.execute(delete(ApiToken).where(ApiToken.user_id == user_id)).rowcount


def list_tokens(principal: Principal, *, session: Session, everyone: bool = False) -> list[ApiToken]:
    """The caller's tokens, or (admins, `everyone`) every user's."""
    query = select(ApiToken).join(User).order_by(User.username, ApiToken.name)
    if everyone:
        if principal.role != Role.admin.value:
            raise Forbidden("only an admin may list other users' tokens")
        return list(session.scalars(query))
    return list(session.scalars(query.where(ApiToken.user_id == principal.user_id))) if principal.user_id else []


def revoke_token(principal: Principal, token_id: int, *, session: Session) -> ApiToken:
    """Delete a token: the caller's own, or anyone's for an admin (others' tokens are NotFound to non-admins)."""
    token = session.get(ApiToken, token_id)
    if token is None or (token.user_id != principal.user_id and principal.role != Role.admin.value):
        raise NotFound("token", token_id)
    token.user  # noqa: B018 - loaded for the audit entry before the row goes
    session.delete(token)
    session.flush()
    return token
