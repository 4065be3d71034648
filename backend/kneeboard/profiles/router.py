"""Device profile routes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kneeboard.deps import SessionDep
from kneeboard.profiles import service
from kneeboard.profiles.schemas import ProfileCreate, ProfileOut

router = APIRouter(prefix="/profiles", tags=["profiles"])


@router.get("", response_model=list[ProfileOut])
def list_profiles(session: SessionDep):
    """Uploaded device profiles (the built-in `singlelight` is always there)."""
    return service.list_profiles(session=session)


@router.post("", response_model=ProfileOut, status_code=201)
def create_profile(body: ProfileCreate, session: SessionDep):
    """Upload a device profile; devsim checks it first."""
    return service.create_profile(body, session=session)


@router.get("/{profile_id}", response_model=ProfileOut)
def get_profile(profile_id: int, session: SessionDep):
    """One profile."""
    return service.get_profile(profile_id, session=session)


@router.delete("/{profile_id}", status_code=204)
def delete_profile(profile_id: int, session: SessionDep):
    """Delete a profile."""
    service.delete_profile(profile_id, session=session)
    return Response(status_code=204)
