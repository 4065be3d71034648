"""Observer routes (`/agent/observe/…`, observer credentials only: the name comes from the credential). An observer
reaches its own assignments and nothing else; every refusal is audited (who, what)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from kneeboard.agentlink import service as link_service
from kneeboard.agentlink.schemas import INSTANCE
from kneeboard.audit.service import record_by
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.deps import SessionDep
from kneeboard.observers import service
from kneeboard.observers.schemas import HostEventRecord, ObserveAck, ObservedProfile, ObserveAssignmentOut, ObserveState
from kneeboard.agentlink.deps import audited, only, registered_instance

router = APIRouter(prefix="/agent/observe", tags=["observers"])
KIND = "observe_assignment"  # what the audit log calls an assignment
ObserverCaller = Annotated[Principal, Depends(only(Role.observer, KIND, "observe assignments are for observers' credentials (role "
                                                   "observe); a load agent's takes shares"))]


@router.get("/work", response_model=ObserveAssignmentOut, responses={204: {"description": "no assignment within the wait"}})
async def take_assignment(caller: ObserverCaller, instance: str = Query(pattern=INSTANCE),
                          wait_s: float = Query(default=link_service.POLL_S, ge=0, le=30)):  # fmt: skip
    """Long-poll: this observer's next observe assignment, or 204 after `wait_s`."""
    await registered_instance(caller.agent, instance)
    found = await service.take(caller.agent, wait_s)
    return found if found is not None else Response(status_code=204)


@router.post("/assignments/{assignment_id}/ack", status_code=204)
def acknowledge(assignment_id: int, body: ObserveAck, caller: ObserverCaller, session: SessionDep):
    """Take the assignment before its load starts (403 if not this observer's; 409 once the load started)."""
    row = audited(caller, assignment_id, "ack", lambda: service.acknowledge(caller.agent, assignment_id, body, session=session), KIND)
    record_by(session, caller, "observe", "observe_assignment", row.id, f"point {row.point_id}",
              {"campaign_id": row.campaign_id, "process": row.process, "process_seen": body.process_seen})


@router.post("/assignments/{assignment_id}/alive", response_model=ObserveState)
def assignment_alive(assignment_id: int, caller: ObserverCaller, session: SessionDep):
    """The observer works on; the answer says whether to stop now, and why."""
    return {"stop": audited(caller, assignment_id, "alive", lambda: service.alive(caller.agent, assignment_id, session=session), KIND)}


@router.post("/assignments/{assignment_id}/event", status_code=202)
def tell_event(assignment_id: int, body: HostEventRecord, caller: ObserverCaller, session: SessionDep):
    """One of the assignment's host events as it fires or is done: told on the campaign's live stream (stored with
    the report, after the load)."""
    audited(caller, assignment_id, "tell", lambda: service.tell(caller.agent, assignment_id, body, session=session), KIND)
    return {"told": True}


@router.post("/assignments/{assignment_id}/profile", status_code=202)
def report_profile(assignment_id: int, body: ObservedProfile, caller: ObserverCaller, session: SessionDep):
    """The folded CPU profile of the assignment (or why there is none), once, while its worker waits."""
    row = audited(caller, assignment_id, "report", lambda: service.report(caller.agent, assignment_id, body, session=session), KIND)
    record_by(session, caller, "report", "observe_assignment", row.id, f"point {row.point_id}",
              {"campaign_id": row.campaign_id, "samples": body.profile.samples if body.profile else None, "error": body.error,
               **({"host_settings": [d.model_dump(exclude_none=True) for d in body.host.applied], "refused": body.host.refused}
                  if body.host else {})})
    return {"accepted": True}
