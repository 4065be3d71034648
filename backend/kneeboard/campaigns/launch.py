"""The one launch path: a campaign made by its service (launch, rerun, resume), checked against the policy in force
now with the launcher's role, and audited — in the caller's transaction. The caller then commits and hands the campaign
to its agent: a route through `start`, the scheduler's task (worker/beat.py) after its tick."""

from __future__ import annotations

from typing import Callable

from sqlalchemy.orm import Session

from kneeboard.audit.service import record
from kneeboard.auth.principal import Principal
from kneeboard.campaigns.dispatch import Dispatcher
from kneeboard.campaigns.models import Campaign
from kneeboard.plans import policy_check as policy

Details = Callable[[Campaign], dict]  # what the audit entry says, from the campaign made


def admit(make: Callable[[], Campaign], *, role: str | None, actor: str, source: str | None, action: str,
          details: Details, session: Session) -> Campaign:
    """`make()` a queued campaign, refuse it (PolicyRefused) when the policy or `role`'s caps do not allow it now, and
    put `action` in the audit log by `actor`; never commits."""
    campaign = make()
    policy.check_launch(campaign.plan, role=role, session=session)
    record(session, actor, action, "campaign", campaign.id, campaign.name, source, details(campaign))
    return campaign


def start(make: Callable[[], Campaign], *, user: Principal, action: str, details: Details, session: Session,
          enqueue: Dispatcher) -> Campaign:
    """The launch path for a route, called by routes only (the request's transaction is theirs): admit, commit, and
    only then hand the campaign to its agent (a worker must find it stored)."""
    campaign = admit(make, role=user.role, actor=user.actor, source=user.source, action=action, details=details, session=session)
    session.commit()
    enqueue(campaign.id, campaign.agent)
    return campaign
