"""The audit log: every change of state, newest first, with actor, kind, id, name and source address."""

from __future__ import annotations

import uuid

from tests.support.auth import login, make_user, origin


def test_audit_lists_changes_newest_first(stack):
    username, password = make_user(stack, "operator")
    operator = login(stack, username, password)
    name = f"audited-{uuid.uuid4().hex[:6]}"
    target = operator.post("/api/v1/targets", json={"name": name, "kind": "dns", "host": "127.0.0.1", "port": 53}, headers=origin(stack)).json()
    assert operator.patch(f"/api/v1/targets/{target['id']}", json={"notes": "x"}, headers=origin(stack)).status_code == 200
    assert operator.delete(f"/api/v1/targets/{target['id']}", headers=origin(stack)).status_code == 204

    page = stack.api.get("/api/v1/audit", params={"actor": username, "limit": 10}).json()
    assert [e["action"] for e in page["items"]] == ["delete", "update", "create", "login"]
    assert page["total"] == 4
    first = page["items"][0]
    assert first["actor"] == username and first["kind"] == "target" and first["obj_id"] == str(target["id"])
    assert first["name"] == name and first["source"] == "127.0.0.1"
    times = [e["at"] for e in page["items"]]
    assert times == sorted(times, reverse=True)

    second = stack.api.get("/api/v1/audit", params={"actor": username, "limit": 2, "offset": 2}).json()["items"]
    assert [e["action"] for e in second] == ["create", "login"]
    by_kind = stack.api.get("/api/v1/audit", params={"kind": "user", "actor": username}).json()["items"]
    assert [e["action"] for e in by_kind] == ["login"]


def test_bearer_actions_name_the_token(stack):
    name = f"tokened-{uuid.uuid4().hex[:6]}"
    stack.api.post("/api/v1/targets", json={"name": name, "kind": "dns", "host": "127.0.0.1", "port": 53})
    entry = stack.api.get("/api/v1/audit", params={"kind": "target", "limit": 1}).json()["items"][0]
    assert entry["actor"] == "token:KB_ADMIN_TOKEN" and entry["name"] == name and entry["action"] == "create"


def test_audit_is_for_admins_and_validates_its_query(stack):
    viewer = login(stack, *make_user(stack, "viewer"))
    assert viewer.get("/api/v1/audit").status_code == 403
    bad = stack.api.get("/api/v1/audit", params={"limit": 0})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "limit"]
