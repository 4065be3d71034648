"""Agent credentials: issued by an admin for one agent name and shown once, listed by their first characters,
revoked by id; a presented secret becomes a Principal that may act as that agent only."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.agentlink.models import OBSERVE, AgentCredential
from kneeboard.agents.models import Agent
from kneeboard.auth import resolve
from kneeboard.auth.credentials import digest, new_secret
from kneeboard.auth.principal import Principal
from kneeboard.auth.roles import Role
from kneeboard.db import as_utc, session_scope, utcnow
from kneeboard.errors import NotFound, invalid
from kneeboard.plans import events_check

PREFIX = "kba_"
LAST_USE_EVERY = timedelta(minutes=1)


def issue(agent: str, *, actor: str, session: Session, role: str = "load") -> tuple[AgentCredential, str]:
    """A new credential for `agent` in `role` (load or observe; never the name of a worker that is not a remote agent,
    nor a name another role's credentials hold); returns (row, secret)."""
    existing = session.get(Agent, agent)
    if existing is not None and not (existing.facts or {}).get("remote"):
        raise invalid(("agent",), f"{agent!r} is a database-connected worker, not a remote agent; choose another name")
    other = session.scalar(select(AgentCredential.role).where(AgentCredential.agent == agent, AgentCredential.role != role).limit(1))
    if other is not None:
        raise invalid(("role",), f"{agent!r} already holds {other} credentials; an agent name is a load agent's or an observer's, not both")
    secret = new_secret(PREFIX)
    row = AgentCredential(agent=agent, role=role, prefix=secret[:10], token_hash=digest(secret), created_by=actor[:200])
    session.add(row)
    session.flush()
    return row, secret


def list_credentials(*, session: Session) -> list[AgentCredential]:
    """Every credential, by agent name."""
    return list(session.scalars(select(AgentCredential).order_by(AgentCredential.agent, AgentCredential.id)))


def revoke(credential_id: int, *, session: Session) -> AgentCredential:
    """Delete a credential: its agent's next request is refused."""
    row = session.get(AgentCredential, credential_id)
    if row is None:
        raise NotFound("agent credential", credential_id)
    session.delete(row)
    session.flush()
    return row


def principal(secret: str, source: str | None) -> Principal | None:
    """The agent a secret is bound to, as a Principal with the agent role (observer, for an observer's); None when
    unknown or revoked."""
    with session_scope() as session:
        row = session.scalar(select(AgentCredential).where(AgentCredential.token_hash == digest(secret)))
        if row is None:
            return None
        now = utcnow()
        if row.last_used_at is None or now - as_utc(row.last_used_at) > LAST_USE_EVERY:
            row.last_used_at = now
        role = Role.observer if row.role == OBSERVE else Role.agent
        return Principal(row.agent, role.value, "agent", credential_id=row.id, source=source, agent=row.agent)


def register_bearer() -> None:
    """Let auth resolve an agent's bearer secret (PREFIX) to its Principal (kneeboard/extensions.py, at start)."""
    resolve.register_bearer(PREFIX, principal)


def holds_observe(name: str, session: Session) -> bool:
    """Whether an observer credential is named `name` (a plan's observer event needs one)."""
    return session.scalar(select(AgentCredential.id).where(AgentCredential.agent == name, AgentCredential.role == OBSERVE)) is not None


def register_observers() -> None:
    """Let a plan's check know which observers exist (kneeboard/extensions.py, at start)."""
    events_check.observers_from(holds_observe)
