"""Bodies of the auth, token and user routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from kneeboard.auth.roles import Role

USERNAME = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@-]+$")
PASSWORD = Field(min_length=8, max_length=256)


class LoginBody(BaseModel):
    """A username and password."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class Me(BaseModel):
    """The caller: name, role and how they signed in (session, token or env)."""

    username: str
    role: Role
    via: str
    user_id: int | None = None


def _a_persons(role: Role | None) -> Role | None:
    if role in (Role.agent, Role.observer):
        raise ValueError(f"{role.value} is the role of an agent's credential (POST /agent-credentials), not of an account or token")
    return role


PersonsRole = Annotated[Role, AfterValidator(_a_persons)]


class UserCreate(BaseModel):
    """A new account."""

    model_config = ConfigDict(extra="forbid")
    username: str = USERNAME
    password: str = PASSWORD
    role: PersonsRole = Role.viewer


class UserUpdate(BaseModel):
    """A new role and/or password for an account."""

    model_config = ConfigDict(extra="forbid")
    role: PersonsRole | None = None
    password: str | None = Field(default=None, min_length=8, max_length=256)
    revoke_tokens: bool = Field(default=True, description="with a new password: revoke every API token of the account")


class UserOut(BaseModel):
    """An account (never its password)."""

    model_config = ConfigDict(from_attributes=True)
    id: int
    username: str
    role: Role
    created_at: datetime


class TokenCreate(BaseModel):
    """A name for the token and, optionally, its lifetime (1 minute to 1 year; default TOKEN_TTL_DAYS) and a
    role below the creator's (default: the creator's)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100, pattern=r"^[^\x00-\x1f\x7f]+$")
    expires_in_s: int | None = Field(default=None, ge=60, le=366 * 86_400)
    role: PersonsRole | None = None


class TokenOut(BaseModel):
    """A token as listed: its first characters, never the secret."""

    id: int
    name: str
    prefix: str
    username: str
    created_at: datetime
    expires_at: datetime | None
    role: str | None = Field(default=None, description="the token's own role; null: its owner's")
    last_used_at: datetime | None = Field(default=None, description="to the minute")


class TokenCreated(TokenOut):
    """A new token: `token` is shown this once."""

    token: str
