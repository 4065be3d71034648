"""Route dependencies: `CurrentUser` (the authenticated caller) and `require(role)` for a stronger requirement."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from kneeboard.auth.errors import Forbidden, Unauthenticated
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role, allows


def current_user(request: Request) -> Principal:
    """The caller `AuthMiddleware` authenticated (routes outside its reach get 401)."""
    principal = getattr(request.state, "principal", None)
    if principal is None:
        raise Unauthenticated("not signed in")
    return principal


CurrentUser = Annotated[Principal, Depends(current_user)]


def require(role: str):
    """A dependency refusing (403) callers below `role`: `dependencies=[Depends(require("admin"))]`."""
    needed = Role(role)

    def check(user: CurrentUser, request: Request) -> Principal:
        if not allows(user.role, needed, request.url.path):
            raise Forbidden(f"this needs the {needed.value} role; you are {user.role}")
        return user

    return check
