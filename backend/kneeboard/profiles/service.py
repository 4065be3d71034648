"""Profile operations: devsim itself validates each document before it is stored."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.errors import NotFound, invalid
from kneeboard.profiles.models import DeviceProfile
from kneeboard.profiles.schemas import ProfileCreate
from kneeboard.tools.devsim import BUILT_IN_PROFILES, binary


def check_document(document: dict) -> str:
    """`devsim profile check` on the document (written to a file Kneeboard owns); 422 naming its complaint."""
    with tempfile.TemporaryDirectory(prefix="kb-profile-") as folder:
        path = Path(folder) / "profile.json"
        path.write_text(json.dumps(document))
        try:
            done = subprocess.run([binary(), "profile", "check", "--profile-file", str(path)], capture_output=True, text=True, timeout=10)
        except FileNotFoundError:
            raise invalid(("document",), "devsim is not built on this host, so profiles cannot be checked (install Go, rerun make up)") from None
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["invalid profile"])[0].replace(str(path), "the profile")
        raise invalid(("document",), first.rsplit("profile: ", 1)[-1])
    return done.stdout.strip()[:500]


def create_profile(body: ProfileCreate, *, session: Session) -> DeviceProfile:
    """Check and store a profile under a name no other profile (or built-in) has."""
    if body.name in BUILT_IN_PROFILES or session.scalar(select(DeviceProfile).where(DeviceProfile.name == body.name)):
        raise invalid(("name",), f"a profile named {body.name!r} already exists")
    profile = DeviceProfile(name=body.name, document=body.document, summary=check_document(body.document))
    session.add(profile)
    session.flush()
    return profile


def list_profiles(*, session: Session) -> list[DeviceProfile]:
    """Uploaded profiles by name."""
    return list(session.scalars(select(DeviceProfile).order_by(DeviceProfile.name)))


def get_profile(profile_id: int, *, session: Session) -> DeviceProfile:
    """One profile, or NotFound."""
    profile = session.get(DeviceProfile, profile_id)
    if profile is None:
        raise NotFound("profile", profile_id)
    return profile


def document_for(name: str, *, session: Session, loc: tuple[str, ...] = ("params", "profile")) -> dict | None:
    """The document of an uploaded profile by name; None for a built-in one; Invalid at `loc` when unknown."""
    if name in BUILT_IN_PROFILES:
        return None
    profile = session.scalar(select(DeviceProfile).where(DeviceProfile.name == name))
    if profile is None:
        raise invalid(loc, f"no device profile named {name!r}; upload it first")
    return profile.document


def delete_profile(profile_id: int, *, session: Session) -> None:
    """Delete an uploaded profile (campaigns keep the copy they ran with)."""
    session.delete(get_profile(profile_id, session=session))
