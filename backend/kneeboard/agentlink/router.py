"""Agent link routes (`/agent/…`, agent credentials only: the name comes from the credential, never the path)
and agent credentials (`/agent-credentials`, admins). Every refusal of an agent and every change is audited."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Response

from kneeboard.agentlink import credentials, service
from kneeboard.agentlink.schemas import (Beat, CredentialCreate, CredentialIssued, CredentialOut, Hello, LiveSamples, OutcomeIn,
                                         ServerClock, ShareState, Welcome)
from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser, require
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.deps import SessionDep
from kneeboard.agentlink.deps import AgentCaller, audited, only, registered_instance

link = APIRouter(prefix="/agent", tags=["agent link"])
admin = APIRouter(prefix="/agent-credentials", tags=["agent link"], dependencies=[Depends(require("admin"))])
RUN = Path(pattern=r"^[0-9a-f]{32}$", description="the fanned run the share belongs to")


LoadAgent = Annotated[Principal, Depends(only(Role.agent, "share", "an observer's credential takes no load work: only its own observe "
                                                                    "assignments (/api/v1/agent/observe/…)"))]


@link.post("/hello", response_model=Welcome)
def hello(body: Hello, caller: AgentCaller, session: SessionDep):
    """Register this process as the credential's agent (409 while another live process holds the name)."""
    welcome = audited(caller, "-", "hello", lambda: service.hello(caller.agent, body, session=session, role=caller.role))
    record_by(session, caller, "register", "agent", caller.agent, caller.agent, {"instance": body.instance, "hostname": body.facts.hostname})
    return welcome


@link.post("/heartbeat", response_model=ServerClock)
def heartbeat(body: Beat, caller: AgentCaller, session: SessionDep):
    """The registered process is alive (409 for a superseded one); the reply carries the server's clock."""
    return {"server_time": service.beat(caller.agent, body, session=session)}


@link.get("/work", responses={204: {"description": "no share within the wait"}})
async def take_work(caller: LoadAgent, instance: str = Query(pattern=r"^[A-Za-z0-9_-]{8,64}$"),
                    wait_s: float = Query(default=service.POLL_S, ge=0, le=30)):  # fmt: skip
    """Long-poll: the next share assigned to this agent, or 204 after `wait_s`."""
    await registered_instance(caller.agent, instance)
    job = await service.take_work(caller.agent, wait_s)
    return job if job is not None else Response(status_code=204)


@link.post("/shares/{run}/alive", response_model=ShareState)
def share_alive(caller: LoadAgent, run: str = RUN):
    """The share runs on; the answer says whether to stop its load now, and why."""
    return {"stop": audited(caller, run, "alive", lambda: service.share_state(caller.agent, run))}


@link.post("/shares/{run}/samples", status_code=204)
def share_samples(body: LiveSamples, caller: LoadAgent, run: str = RUN):
    """Live intervals of the share, shown as this agent's series."""
    audited(caller, run, "samples", lambda: service.publish_samples(caller.agent, run, body.samples))


@link.post("/shares/{run}/outcome", status_code=202)
def share_outcome(body: OutcomeIn, caller: LoadAgent, session: SessionDep, run: str = RUN):
    """The share's outcome, for its conductor (403 if not this agent's share; 409 if stale, over or already sent)."""
    found = audited(caller, run, "outcome", lambda: service.accept_outcome(caller.agent, run, body, session=session))
    record_by(session, caller, "report", "share", run, f"point {found['point_id']}",
              {"campaign_id": found["campaign_id"], "attempt": found["attempt"], "error": body.error})
    return {"accepted": True}


@admin.get("", response_model=list[CredentialOut])
def list_credentials(session: SessionDep):
    """Every agent credential (never the secrets)."""
    return credentials.list_credentials(session=session)


@admin.post("", response_model=CredentialIssued, status_code=201)
def create_credential(body: CredentialCreate, user: CurrentUser, session: SessionDep):
    """A credential bound to one agent name; its secret is shown this once."""
    row, secret = credentials.issue(body.agent, actor=user.actor, session=session, role=body.role)
    record_by(session, user, "create", "agent_credential", row.id, row.agent, {"prefix": row.prefix, "role": row.role})
    return {**CredentialOut.model_validate(row).model_dump(), "secret": secret}


@admin.delete("/{credential_id}", status_code=204)
def revoke_credential(credential_id: int, user: CurrentUser, session: SessionDep):
    """Revoke a credential: its agent is refused from its next request on."""
    row = credentials.revoke(credential_id, session=session)
    record_by(session, user, "delete", "agent_credential", row.id, row.agent, {"prefix": row.prefix})

router = APIRouter()
router.include_router(link)
router.include_router(admin)
