"""Accounts and browser sessions. Services never commit: the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from kneeboard.auth.credentials import hash_password
from kneeboard.auth.tokens import revoke_all
from kneeboard.auth.models import LoginSession, User
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.auth.schemas import UserCreate, UserUpdate
from kneeboard.errors import Conflict, NotFound, invalid


def list_users(*, session: Session) -> list[User]:
    """Every account, by name."""
    return list(session.scalars(select(User).order_by(User.username)))


def get_user(user_id: int, *, session: Session) -> User:
    """One account, or NotFound."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("user", user_id)
    return user


def find_user(username: str, *, session: Session) -> User | None:
    """The account with this name, if any."""
    return session.scalar(select(User).where(User.username == username))


def create_user(body: UserCreate, *, session: Session) -> User:
    """A new account with an argon2-hashed password."""
    if find_user(body.username, session=session) is not None:
        raise invalid(("username",), f"a user named {body.username!r} already exists")
    user = User(username=body.username, password_hash=hash_password(body.password), role=body.role.value)
    session.add(user)
    session.flush()
    return user


def _other_admins(user: User, *, session: Session) -> int:
    return session.scalar(select(func.count()).select_from(User).where(User.role == Role.admin.value, User.id != user.id)) or 0


def update_user(user_id: int, body: UserUpdate, *, session: Session) -> User:
    """Change an account's role and/or password (a new password ends its sessions); the last admin stays admin."""
    user = get_user(user_id, session=session)
    if body.role is not None and body.role is not Role.admin and user.role == Role.admin.value and not _other_admins(user, session=session):
        raise Conflict(f"user {user.username} is the last admin")
    if body.role is not None:
        user.role = body.role.value
    if body.password is not None:
        user.password_hash = hash_password(body.password)
        session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))
        if body.revoke_tokens:
            revoke_all(user.id, session=session)
    session.flush()
    return user


def delete_user(user_id: int, *, session: Session) -> User:
    """Delete an account with its sessions and tokens; the last admin cannot be deleted."""
    user = get_user(user_id, session=session)
    if user.role == Role.admin.value and not _other_admins(user, session=session):
        raise Conflict(f"user {user.username} is the last admin")
    session.delete(user)
    session.flush()
    return user


def logout(principal: Principal, *, session: Session) -> None:
    """End the caller's browser session (a token stays valid until revoked)."""
    if principal.via == "session" and principal.credential_id is not None:
        session.execute(delete(LoginSession).where(LoginSession.id == principal.credential_id))
