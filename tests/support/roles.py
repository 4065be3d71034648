"""Clients signed in with a given role, for tests of who may do what."""

from __future__ import annotations

import uuid

import httpx


def client_for(stack, role: str) -> httpx.Client:
    """A new user of `role` (created by the admin), with an API token; the caller closes the client."""
    username, password = f"{role}-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    created = stack.api.post("/api/v1/users", json={"username": username, "password": password, "role": role})
    assert created.status_code == 201, created.text
    with httpx.Client(base_url=stack.api_url, timeout=30, headers={"Origin": stack.api_url}) as browser:
        assert browser.post("/api/v1/auth/login", json={"username": username, "password": password}).status_code == 200
        token = browser.post("/api/v1/tokens", json={"name": "tests"})
        assert token.status_code == 201, token.text
    return httpx.Client(base_url=stack.api_url, timeout=30, headers={"Authorization": f"Bearer {token.json()['token']}"})
