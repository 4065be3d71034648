"""Device profile routes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.deps import SessionDep
from kneeboard.profiles import service
from kneeboard.profiles.schemas import ProfileCreate, ProfileOut

router = APIRouter(prefix="/profiles", tags=["profiles"])


@router.get("", response_model=list[ProfileOut])
def list_profiles(session: SessionDep):
    """Uploaded device profiles (the built-in `singlelight` is always there)."""
    return service.list_profiles(session=session)


@router.post("", response_model=ProfileOut, status_code=201)
def create_profile(body: ProfileCreate, session: SessionDep, user: CurrentUser):
    """Upload a device profile; devsim checks it first."""
    profile = service.create_profile(body, session=session)
    record_by(session, user, "create", "profile", profile.id, profile.name)
    return profile


@router.get("/{profile_id}", response_model=ProfileOut)
def get_profile(profile_id: int, session: SessionDep):
    """One profile."""
    return service.get_profile(profile_id, session=session)


@router.delete("/{profile_id}", status_code=204)
def delete_profile(profile_id: int, session: SessionDep, user: CurrentUser):
    """Delete a profile."""
    name = service.get_profile(profile_id, session=session).name
    service.delete_profile(profile_id, session=session)
    record_by(session, user, "delete", "profile", profile_id, name)
    return Response(status_code=204)
