"""Helpers for the auth tests: users made with the admin token, real logins, cookie clients."""

from __future__ import annotations

import uuid

import httpx


def make_user(stack, role: str, password: str = "correct horse battery") -> tuple[str, str]:
    """A new account with `role`, created through POST /api/v1/users; returns (username, password)."""
    username = f"{role}-{uuid.uuid4().hex[:8]}"
    created = stack.api.post("/api/v1/users", json={"username": username, "password": password, "role": role})
    assert created.status_code == 201, created.text
    return username, password


def login(stack, username: str, password: str) -> httpx.Client:
    """A client signed in through POST /api/v1/auth/login, carrying only the session cookie."""
    client = httpx.Client(base_url=stack.api_url, timeout=30)
    answer = client.post("/api/v1/auth/login", json={"username": username, "password": password})
    assert answer.status_code == 200, answer.text
    assert "kb_session" in client.cookies
    return client


def origin(stack) -> dict[str, str]:
    """The Origin header of the site's own pages."""
    return {"Origin": stack.api_url}
