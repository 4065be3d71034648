"""Target policy routes: everyone signed in reads it, admins replace it."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser, require
from kneeboard.deps import SessionDep
from kneeboard.policy import service
from kneeboard.policy.schemas import Policy, PolicyOut

router = APIRouter(prefix="/policy", tags=["policy"])


@router.get("/targets", response_model=PolicyOut)
def get_policy(session: SessionDep):
    """The target policy in force: allowed networks and host names, caps per role."""
    return service.get_policy(session=session)


@router.put("/targets", response_model=PolicyOut, dependencies=[Depends(require("admin"))])
def put_policy(body: Policy, session: SessionDep, user: CurrentUser):
    """Replace the target policy (admins only); the audit log keeps the policy before and after."""
    before = service.get_policy(session=session).model_dump(mode="json")
    after = service.put_policy(body, actor=user.actor, session=session)
    record_by(session, user, "update", "policy", "targets", "target policy", {"before": before, "after": after.model_dump(mode="json")})
    return after
