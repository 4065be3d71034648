"""Prometheus routes: /api/v1/prometheus (admins register, everyone lists, nobody reads a credential back) and its
allow-list at /api/v1/policy/prometheus (admins write)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser, require
from kneeboard.deps import SessionDep
from kneeboard.promql import service
from kneeboard.promql.schemas import ServerCreate, ServerOut, ServerUpdate
from kneeboard.outbound.schemas import AllowList, AllowListOut

router = APIRouter(tags=["prometheus"])
ADMIN = [Depends(require("admin"))]


@router.get("/prometheus", response_model=list[ServerOut])
def list_servers(session: SessionDep):
    """Every registered Prometheus (whether it has a credential, never the credential)."""
    return service.list_all(session=session)


@router.post("/prometheus", response_model=ServerOut, status_code=201, dependencies=ADMIN)
def create_server(session: SessionDep, body: ServerCreate, user: CurrentUser):
    """Register a team's Prometheus on the allow-list's terms (admins only); its credential is never shown again."""
    server = service.create(body, creator=user.username, session=session)
    record_by(session, user, "create", "prometheus", server.id, server.name, service.audit_details(server))
    return server


@router.patch("/prometheus/{server_id}", response_model=ServerOut, dependencies=ADMIN)
def update_server(session: SessionDep, server_id: int, body: ServerUpdate, user: CurrentUser):
    """Change a Prometheus's URL, scrape interval or credential (admins only)."""
    server = service.update(server_id, body, session=session)
    changed = sorted(body.model_fields_set - {"bearer_token", "basic"}) + (["credential"] if body.bearer_token or body.basic else [])
    record_by(session, user, "update", "prometheus", server.id, server.name, {"fields": changed, **service.audit_details(server)})
    return server


@router.delete("/prometheus/{server_id}", status_code=204, dependencies=ADMIN)
def delete_server(session: SessionDep, server_id: int, user: CurrentUser):
    """Forget a Prometheus (admins only) that no target names."""
    server = service.delete(server_id, session=session)
    record_by(session, user, "delete", "prometheus", server_id, server.name)
    return Response(status_code=204)


@router.get("/policy/prometheus", response_model=AllowListOut)
def get_allowlist(session: SessionDep):
    """Where a Prometheus may be (apart from the target policy and the webhooks'; empty by default)."""
    return service.ALLOWLIST.get(session=session)


@router.put("/policy/prometheus", response_model=AllowListOut, dependencies=ADMIN)
def put_allowlist(body: AllowList, session: SessionDep, user: CurrentUser):
    """Replace the Prometheus allow-list (admins only); the audit log keeps it before and after."""
    before = service.ALLOWLIST.get(session=session).model_dump(mode="json")
    after = service.ALLOWLIST.put(body, actor=user.actor, session=session)
    record_by(session, user, "update", "policy", "prometheus", "Prometheus allow-list", {"before": before, "after": after.model_dump(mode="json")})
    return after
