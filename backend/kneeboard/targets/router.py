"""Target routes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.deps import SessionDep
from kneeboard.targets import service
from kneeboard.targets.schemas import TargetCreate, TargetKind, TargetOut, TargetUpdate

router = APIRouter(prefix="/targets", tags=["targets"])


@router.get("", response_model=list[TargetOut])
def list_targets(session: SessionDep, kind: TargetKind | None = None):
    """All targets, or those of one kind."""
    return service.list_targets(session=session, kind=kind)


@router.post("", response_model=TargetOut, status_code=201)
def create_target(session: SessionDep, body: TargetCreate, user: CurrentUser):
    """Register a target."""
    target = service.create_target(body, session=session)
    record_by(session, user, "create", "target", target.id, target.name)
    return target


@router.get("/{target_id}", response_model=TargetOut)
def get_target(session: SessionDep, target_id: int):
    """One target."""
    return service.get_target(target_id, session=session)


@router.patch("/{target_id}", response_model=TargetOut)
def update_target(session: SessionDep, target_id: int, body: TargetUpdate, user: CurrentUser):
    """Change a target."""
    target = service.update_target(target_id, body, session=session)
    record_by(session, user, "update", "target", target.id, target.name, {"fields": sorted(body.model_fields_set)})
    return target


@router.delete("/{target_id}", status_code=204)
def delete_target(session: SessionDep, target_id: int, user: CurrentUser):
    """Delete a target."""
    name = service.get_target(target_id, session=session).name
    service.delete_target(target_id, session=session)
    record_by(session, user, "delete", "target", target_id, name)
    return Response(status_code=204)
