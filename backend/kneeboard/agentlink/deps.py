"""The agent link's caller checks, for its routes and the observers' (a route-layer module, like auth/deps.py: a
router imports it, never another router)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from kneeboard.agentlink import service as link_service
from kneeboard.audit.service import record_refusal
from kneeboard.auth.deps import CurrentUser
from kneeboard.auth.errors import Forbidden
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.db import session_scope
from kneeboard.errors import DomainError


def _agent(user: CurrentUser) -> Principal:
    if user.agent is None:
        raise Forbidden("the agent link needs an agent credential (an admin makes one with POST /api/v1/agent-credentials)")
    return user


AgentCaller = Annotated[Principal, Depends(_agent)]


def only(role: Role, kind: str, why: str):
    """A dependency taking the agent link's callers in `role` only; any other is refused (403), audited (who, what)."""

    def check(user: AgentCaller, request: Request) -> Principal:
        if user.role != role.value:
            obj = next(iter(request.path_params.values()), "-")
            record_refusal(user.actor, kind, obj, request.url.path[:200], user.source, {"why": why})
            raise Forbidden(why)
        return user

    return check


def audited(caller: Principal, obj: object, what: str, work, kind: str = "share"):
    """Run `work`; a refusal (403/409) is audited in a transaction of its own before it is answered."""
    try:
        return work()
    except (DomainError, Forbidden) as exc:
        record_refusal(caller.actor, kind, obj, what, caller.source, {"why": str(exc)})
        raise


def _current_instance(agent: str, instance: str) -> None:
    with session_scope() as session:
        link_service.current_instance(agent, instance, session=session)


async def registered_instance(agent: str, instance: str) -> None:
    """Conflict unless `instance` is `agent`'s registered process, in a transaction of its own (before a long-poll,
    which holds no session while it waits)."""
    await run_in_threadpool(_current_instance, agent, instance)
