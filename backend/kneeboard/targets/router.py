"""Target routes."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlalchemy.orm import Session

from kneeboard.deps import get_session
from kneeboard.targets import service
from kneeboard.targets.schemas import TargetCreate, TargetKind, TargetOut, TargetUpdate

router = APIRouter(prefix="/targets", tags=["targets"])


@router.get("", response_model=list[TargetOut])
def list_targets(kind: TargetKind | None = None, session: Session = Depends(get_session)):
    """All targets, or those of one kind."""
    return service.list_targets(session=session, kind=kind)


@router.post("", response_model=TargetOut, status_code=201)
def create_target(body: TargetCreate, session: Session = Depends(get_session)):
    """Register a target."""
    return service.create_target(body, session=session)


@router.get("/{target_id}", response_model=TargetOut)
def get_target(target_id: int, session: Session = Depends(get_session)):
    """One target."""
    return service.get_target(target_id, session=session)


@router.patch("/{target_id}", response_model=TargetOut)
def update_target(target_id: int, body: TargetUpdate, session: Session = Depends(get_session)):
    """Change a target."""
    return service.update_target(target_id, body, session=session)


@router.delete("/{target_id}", status_code=204)
def delete_target(target_id: int, session: Session = Depends(get_session)):
    """Delete a target."""
    service.delete_target(target_id, session=session)
    return Response(status_code=204)
