"""Accounts, sessions, tokens and the HTTP guard, through real logins against the real stack."""

from __future__ import annotations

import uuid

import httpx
import pytest
from fastapi.routing import iter_route_contexts
from sqlalchemy import create_engine, text

from tests.support.auth import login, make_user, origin

PUBLIC = {("GET", "/api/v1/health"), ("POST", "/api/v1/auth/login")}


def api_routes() -> list[tuple[str, str]]:
    """Every (method, path) under /api/v1 of the real application, path parameters filled with 1."""
    from kneeboard.main import app

    found = []
    for route in iter_route_contexts(app.routes):
        if not route.path.startswith("/api/v1"):
            continue
        path = route.path
        while "{" in path:
            path = path[: path.index("{")] + "1" + path[path.index("}") + 1 :]
        found += [(method, path, route.path) for method in sorted(getattr(route, "methods", None) or ["GET"]) if method != "HEAD"]
    return found


def test_every_api_route_needs_credentials(stack):
    routes = api_routes()
    assert len(routes) > 30 and ("GET", "/api/v1/campaigns/1/events", "/api/v1/campaigns/{campaign_id}/events") in routes
    with httpx.Client(base_url=stack.api_url, timeout=30) as anonymous:
        for method, path, template in routes:
            status = anonymous.request(method, path).status_code
            if (method, template) in PUBLIC:
                assert status != 401, (method, path)
            elif template.startswith("/api/v1/shared/"):
                assert status in {404, 410, 422}, (method, path, status)
            else:
                assert status == 401, (method, path, status)
        assert anonymous.get("/api/v1/no-such-route").status_code == 401
        assert anonymous.get("/api/v1/targets", headers={"Authorization": "Bearer kb_not-a-token"}).status_code == 401
        assert anonymous.get("/api/v1/targets", headers={"Authorization": f"Basic {stack.admin_token}"}).status_code == 401


def test_viewer_reads_but_cannot_write(stack):
    viewer = login(stack, *make_user(stack, "viewer"))
    assert viewer.get("/api/v1/targets").status_code == 200
    refused = viewer.post("/api/v1/targets", json={"name": "nope", "kind": "dns", "host": "127.0.0.1", "port": 53}, headers=origin(stack))
    assert refused.status_code == 403 and "operator" in refused.json()["detail"]
    assert viewer.get("/api/v1/audit").status_code == 403
    assert viewer.get("/api/v1/users").status_code == 403


def test_operator_creates_a_target_and_cannot_manage_users(stack):
    operator = login(stack, *make_user(stack, "operator"))
    body = {"name": f"op-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": stack.dns_port}
    created = operator.post("/api/v1/targets", json=body, headers=origin(stack))
    assert created.status_code == 201, created.text
    me = operator.get("/api/v1/auth/me").json()
    assert me["role"] == "operator" and me["via"] == "session"
    refused = operator.post("/api/v1/users", json={"username": "x" + uuid.uuid4().hex[:6], "password": "long enough"}, headers=origin(stack))
    assert refused.status_code == 403


def test_cookie_writes_need_the_sites_own_origin(stack):
    operator = login(stack, *make_user(stack, "operator"))
    body = {"name": f"csrf-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
    assert operator.post("/api/v1/targets", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
    assert operator.post("/api/v1/targets", json=body, headers={"Origin": "null"}).status_code == 403
    assert operator.post("/api/v1/targets", json=body).status_code == 403  # neither Origin nor Referer
    assert operator.post("/api/v1/targets", json=body, headers={"Referer": "http://evil.example/page"}).status_code == 403
    assert operator.post("/api/v1/targets", json=body, headers={"Referer": f"{stack.api_url}/targets"}).status_code == 201
    body["name"] += "b"
    assert operator.post("/api/v1/targets", json=body, headers=origin(stack)).status_code == 201
    assert operator.get("/api/v1/targets", headers={"Origin": "http://evil.example"}).status_code == 200  # reads are not writes


def test_bearer_tokens_are_exempt_from_the_origin_check(stack):
    body = {"name": f"bearer-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
    assert stack.api.post("/api/v1/targets", json=body, headers={"Origin": "http://evil.example"}).status_code == 201


def test_login_from_a_foreign_origin_is_refused(stack):
    username, password = make_user(stack, "viewer")
    with httpx.Client(base_url=stack.api_url) as client:
        answer = client.post("/api/v1/auth/login", json={"username": username, "password": password}, headers={"Origin": "http://evil.example"})
        assert answer.status_code == 403 and "kb_session" not in client.cookies


def test_foreign_host_header_is_refused(stack):
    with httpx.Client(base_url=stack.api_url) as client:
        assert client.get("/", headers={"Host": "attacker.example"}).status_code == 400
        assert client.get("/api/v1/health", headers={"Host": "attacker.example"}).status_code == 400
        assert client.get("/api/v1/health", headers={"Host": "localhost"}).status_code == 200


@pytest.mark.parametrize("path", ["/", "/api/v1/health", "/campaigns/1", "/api/v1/targets"])
def test_security_headers_on_every_response(stack, path):
    headers = httpx.get(f"{stack.api_url}{path}").headers
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] in {"same-origin", "no-referrer", "strict-origin"}


def test_session_cookie_flags_and_logout(stack):
    username, password = make_user(stack, "viewer")
    with httpx.Client(base_url=stack.api_url) as client:
        answer = client.post("/api/v1/auth/login", json={"username": username, "password": password})
        cookie = answer.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert client.get("/api/v1/auth/me").json()["username"] == username
        stolen = client.cookies["kb_session"]
        assert client.post("/api/v1/auth/logout", headers=origin(stack)).status_code == 204
    with httpx.Client(base_url=stack.api_url, cookies={"kb_session": stolen}) as replay:
        assert replay.get("/api/v1/auth/me").status_code == 401


def test_wrong_password_is_401_and_audited(stack):
    username, _ = make_user(stack, "viewer")
    with httpx.Client(base_url=stack.api_url) as client:
        assert client.post("/api/v1/auth/login", json={"username": username, "password": "not the password"}).status_code == 401
        assert client.post("/api/v1/auth/login", json={"username": "nobody-" + username, "password": "whatever"}).status_code == 401
        assert "kb_session" not in client.cookies
    entries = stack.api.get("/api/v1/audit", params={"actor": username}).json()["items"]
    assert entries[0]["action"] == "login_failed" and entries[0]["kind"] == "user" and entries[0]["source"] == "127.0.0.1"


def test_token_is_shown_once_stored_hashed_and_revocable(stack):
    operator = login(stack, *make_user(stack, "operator"))
    created = operator.post("/api/v1/tokens", json={"name": "ci"}, headers=origin(stack))
    assert created.status_code == 201, created.text
    token = created.json()["token"]
    listed = operator.get("/api/v1/tokens").json()
    assert [t["name"] for t in listed] == ["ci"] and all("token" not in t for t in listed)
    assert token not in str(listed)
    engine = create_engine(stack.env["DATABASE_URL"])
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(text("select * from api_tokens"))]
        sessions = [dict(r._mapping) for r in conn.execute(text("select * from login_sessions"))]
        users = [dict(r._mapping) for r in conn.execute(text("select * from users"))]
    engine.dispose()
    assert rows and token not in str(rows) and operator.cookies["kb_session"] not in str(sessions)
    assert all(u["password_hash"].startswith("$argon2") for u in users)
    with httpx.Client(base_url=stack.api_url, headers={"Authorization": f"Bearer {token}"}) as script:
        assert script.get("/api/v1/auth/me").json()["via"] == "token"
        body = {"name": f"tok-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
        assert script.post("/api/v1/targets", json=body).status_code == 201
        assert operator.delete(f"/api/v1/tokens/{created.json()['id']}", headers=origin(stack)).status_code == 204
        assert script.get("/api/v1/targets").status_code == 401


def test_others_tokens_are_invisible_to_non_admins(stack):
    alice = login(stack, *make_user(stack, "operator"))
    bob = login(stack, *make_user(stack, "operator"))
    token = alice.post("/api/v1/tokens", json={"name": "mine"}, headers=origin(stack)).json()
    assert bob.delete(f"/api/v1/tokens/{token['id']}", headers=origin(stack)).status_code == 404
    assert bob.get("/api/v1/tokens", params={"all": "true"}).status_code == 403
    assert any(t["id"] == token["id"] for t in stack.api.get("/api/v1/tokens", params={"all": "true"}).json())


def test_admin_manages_users_and_roles_take_effect_at_once(stack):
    username, password = make_user(stack, "viewer")
    client = login(stack, username, password)
    user_id = next(u["id"] for u in stack.api.get("/api/v1/users").json() if u["username"] == username)
    body = {"name": f"promo-{uuid.uuid4().hex[:6]}", "kind": "dns", "host": "127.0.0.1", "port": 53}
    assert client.post("/api/v1/targets", json=body, headers=origin(stack)).status_code == 403
    assert stack.api.patch(f"/api/v1/users/{user_id}", json={"role": "operator"}).json()["role"] == "operator"
    assert client.post("/api/v1/targets", json=body, headers=origin(stack)).status_code == 201
    assert stack.api.patch(f"/api/v1/users/{user_id}", json={"role": "root"}).status_code == 422
    for role in ("agent", "observer"):  # a credential's role, not a person's: an account with it could do nothing
        refused = stack.api.patch(f"/api/v1/users/{user_id}", json={"role": role})
        assert refused.status_code == 422 and "POST /agent-credentials" in refused.text, refused.text
        made = stack.api.post("/api/v1/users", json={"username": f"{role}-{uuid.uuid4().hex[:6]}", "password": "long enough", "role": role})
        assert made.status_code == 422 and made.json()["detail"][0]["loc"][-1] == "role", made.text
        assert stack.api.post("/api/v1/tokens", json={"name": "t", "role": role}).status_code == 422
    assert stack.api.post("/api/v1/users", json={"username": username, "password": "long enough"}).status_code == 422
    assert stack.api.post("/api/v1/users", json={"username": "short-pw", "password": "x"}).json()["detail"][0]["loc"][-1] == "password"
    assert stack.api.delete(f"/api/v1/users/{user_id}").status_code == 204
    assert client.get("/api/v1/auth/me").status_code == 401


def test_live_events_accept_the_session_cookie_and_the_bearer_token(stack):
    client = login(stack, *make_user(stack, "viewer"))
    campaigns = stack.api.get("/api/v1/campaigns", params={"limit": 1}).json()["items"]
    campaign_id = campaigns[0]["id"] if campaigns else 1
    for who in (client, stack.api):
        with who.stream("GET", f"/api/v1/campaigns/{campaign_id}/events", timeout=10) as answer:
            assert answer.status_code in ({200} if campaigns else {404})
    with httpx.stream("GET", f"{stack.api_url}/api/v1/campaigns/{campaign_id}/events", timeout=10) as anonymous:
        assert anonymous.status_code == 401
