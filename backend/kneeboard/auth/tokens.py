"""API tokens: created per user and shown once, listed by their first characters, revoked by id."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.auth.credentials import TOKEN_PREFIX, digest, new_secret
from kneeboard.auth.errors import Forbidden
from kneeboard.auth.models import ApiToken, User
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.auth.schemas import TokenCreate
from kneeboard.db import utcnow
from kneeboard.errors import NotFound, invalid


def describe(token: ApiToken) -> dict:
    """A token as listed (never the secret)."""
    return {"id": token.id, "name": token.name, "prefix": token.prefix, "username": token.user.username,
            "created_at": token.created_at, "expires_at": token.expires_at}  # fmt: skip


def _own_user(principal: Principal) -> int:
    if principal.user_id is None:
        raise Forbidden("the KB_ADMIN_TOKEN is not an account; create a user (POST /api/v1/users) and use its tokens")
    return principal.user_id


def issue(user: User, body: TokenCreate, *, session: Session) -> tuple[ApiToken, str]:
    """A new token for `user`; returns (row, secret). The secret is never stored."""
    if session.scalar(select(ApiToken.id).where(ApiToken.user_id == user.id, ApiToken.name == body.name)) is not None:
        raise invalid(("name",), f"a token named {body.name!r} already exists")
    secret = new_secret(TOKEN_PREFIX)
    expires = utcnow() + timedelta(seconds=body.expires_in_s) if body.expires_in_s else None
    token = ApiToken(user=user, name=body.name, prefix=secret[:10], token_hash=digest(secret), expires_at=expires)
    session.add(token)
    session.flush()
    return token, secret


def create_token(principal: Principal, body: TokenCreate, *, session: Session) -> tuple[ApiToken, str]:
    """A new token for the caller's own account."""
    return issue(session.get_one(User, _own_user(principal)), body, session=session)


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
