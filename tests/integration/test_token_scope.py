"""API tokens: a default lifetime, never longer-lived nor of a higher role than the token that makes them,
their last use shown, and a password change that revokes them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import httpx

from kneeboard.config import get_settings


def _account(stack, role: str) -> tuple[int, str, str]:
    username, password = f"tok-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    made = stack.api.post("/api/v1/users", json={"username": username, "password": password, "role": role})
    assert made.status_code == 201, made.text
    return made.json()["id"], username, password


@contextmanager
def _signed_in(stack, username: str, password: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.api_url, timeout=30, headers={"Origin": stack.api_url}) as browser:
        assert browser.post("/api/v1/auth/login", json={"username": username, "password": password}).status_code == 200
        yield browser


def _bearer(stack, secret: str) -> httpx.Client:
    return httpx.Client(base_url=stack.api_url, timeout=30, headers={"Authorization": f"Bearer {secret}"})


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def test_lifetime_role_and_last_use(stack):
    _, username, password = _account(stack, "operator")
    with _signed_in(stack, username, password) as browser:
        made = browser.post("/api/v1/tokens", json={"name": "default"})
        assert made.status_code == 201, made.text
        lifetime = _when(made.json()["expires_at"]) - datetime.now(timezone.utc)
        assert abs(lifetime - timedelta(days=get_settings().token_ttl_days)) < timedelta(minutes=5)
        higher = browser.post("/api/v1/tokens", json={"name": "higher", "role": "admin"})
        assert higher.status_code == 422 and higher.json()["detail"][0]["loc"][-1] == "role"
        short = browser.post("/api/v1/tokens", json={"name": "short", "expires_in_s": 3600}).json()
    with _bearer(stack, short["token"]) as script:
        longer = script.post("/api/v1/tokens", json={"name": "longer", "expires_in_s": 7200})
        assert longer.status_code == 422 and longer.json()["detail"][0]["loc"][-1] == "expires_in_s"
        capped = script.post("/api/v1/tokens", json={"name": "capped"}).json()
        assert _when(capped["expires_at"]) <= _when(short["expires_at"])
        reader = script.post("/api/v1/tokens", json={"name": "reader", "role": "viewer"}).json()
        listed = {t["name"]: t for t in script.get("/api/v1/tokens").json()}
        assert listed["short"]["last_used_at"] is not None and listed["default"]["last_used_at"] is None
    with _bearer(stack, reader["token"]) as viewer:
        assert viewer.get("/api/v1/auth/me").json()["role"] == "viewer"
        assert viewer.post("/api/v1/targets", json={"name": "x", "kind": "dns", "host": "127.0.0.1", "port": 53}).status_code == 403
        escalate = viewer.post("/api/v1/tokens", json={"name": "escalate", "role": "operator"})
        assert escalate.status_code == 422


def test_a_password_change_revokes_the_accounts_tokens(stack):
    user_id, username, password = _account(stack, "operator")
    with _signed_in(stack, username, password) as browser:
        first = browser.post("/api/v1/tokens", json={"name": "first"}).json()["token"]
    with _bearer(stack, first) as script:
        assert script.get("/api/v1/auth/me").status_code == 200
        kept = stack.api.patch(f"/api/v1/users/{user_id}", json={"password": uuid.uuid4().hex, "revoke_tokens": False})
        assert kept.status_code == 200 and script.get("/api/v1/auth/me").status_code == 200
        changed = stack.api.patch(f"/api/v1/users/{user_id}", json={"password": uuid.uuid4().hex})
        assert changed.status_code == 200 and script.get("/api/v1/auth/me").status_code == 401
    entry = stack.api.get("/api/v1/audit", params={"kind": "user", "limit": 50}).json()["items"][0]
    assert entry["action"] == "update" and entry["details"]["tokens_revoked"] is True
