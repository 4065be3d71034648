"""Routes: /auth (login, logout, me), /tokens (the caller's API tokens), /users (admins)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request, Response

from kneeboard.audit.service import record_by
from kneeboard.auth import login as signin
from kneeboard.auth import service, tokens
from kneeboard.auth.deps import CurrentUser, require
from kneeboard.auth.resolve import SESSION_COOKIE
from kneeboard.auth.schemas import LoginBody, Me, TokenCreate, TokenCreated, TokenOut, UserCreate, UserOut, UserUpdate
from kneeboard.config import get_settings
from kneeboard.deps import SessionDep

auth_router = APIRouter(prefix="/auth", tags=["auth"])
tokens_router = APIRouter(prefix="/tokens", tags=["auth"])
users_router = APIRouter(prefix="/users", tags=["auth"], dependencies=[Depends(require("admin"))])


@auth_router.post("/login", response_model=Me, responses={429: {"description": "too many failed sign-ins (Retry-After)"}})
async def login(body: LoginBody, request: Request, response: Response):
    """Check the password (throttled: 429 with Retry-After) and set the HttpOnly, SameSite=Lax session cookie."""
    source = request.client.host if request.client else None
    who, secret = await signin.login(body.username, body.password, source=source)
    response.set_cookie(SESSION_COOKIE, secret, max_age=int(get_settings().session_ttl_s), path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")  # fmt: skip
    return who


@auth_router.post("/logout", status_code=204)
def logout(user: CurrentUser, session: SessionDep):
    """End this browser session and clear its cookie."""
    service.logout(user, session=session)
    record_by(session, user, "logout", "user", user.user_id, user.username)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@auth_router.get("/me", response_model=Me)
def me(user: CurrentUser):
    """The caller: name, role, and how they signed in."""
    return {"username": user.username, "role": user.role, "via": user.via, "user_id": user.user_id}


@tokens_router.get("", response_model=list[TokenOut])
def list_tokens(user: CurrentUser, session: SessionDep, all: bool = Query(default=False, description="every user's (admins)")):  # noqa: A002
    """The caller's API tokens (never their secrets); `all=true` lists everyone's for admins."""
    return [tokens.describe(t) for t in tokens.list_tokens(user, session=session, everyone=all)]


@tokens_router.post("", response_model=TokenCreated, status_code=201)
def create_token(body: TokenCreate, user: CurrentUser, session: SessionDep):
    """A new API token for the caller; the secret is in this answer only."""
    token, secret = tokens.create_token(user, body, session=session)
    record_by(session, user, "create", "token", token.id, token.name)
    return {**tokens.describe(token), "token": secret}


@tokens_router.delete("/{token_id}", status_code=204)
def revoke_token(token_id: int, user: CurrentUser, session: SessionDep):
    """Revoke a token (the caller's own; admins: anyone's)."""
    token = tokens.revoke_token(user, token_id, session=session)
    record_by(session, user, "delete", "token", token.id, token.name, {"owner": token.user.username})
    return Response(status_code=204)


@users_router.get("", response_model=list[UserOut])
def list_users(session: SessionDep):
    """Every account."""
    return service.list_users(session=session)


@users_router.post("", response_model=UserOut, status_code=201)
def create_user(body: UserCreate, user: CurrentUser, session: SessionDep):
    """A new account."""
    created = service.create_user(body, session=session)
    record_by(session, user, "create", "user", created.id, created.username, {"role": created.role})
    return created


@users_router.patch("/{user_id}", response_model=UserOut)
def update_user(user_id: int, body: UserUpdate, user: CurrentUser, session: SessionDep):
    """Change an account's role and/or password."""
    changed = service.update_user(user_id, body, session=session)
    record_by(session, user, "update", "user", changed.id, changed.username, {"role": changed.role, "password_changed": body.password is not None,
                                                                             "tokens_revoked": body.password is not None and body.revoke_tokens})
    return changed


@users_router.delete("/{user_id}", status_code=204)
def delete_user(user_id: int, user: CurrentUser, session: SessionDep):
    """Delete an account with its sessions and tokens."""
    deleted = service.delete_user(user_id, session=session)
    record_by(session, user, "delete", "user", deleted.id, deleted.username)
    return Response(status_code=204)
