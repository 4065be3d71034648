"""Target policy operations: read and replace the policy, check a host against it.

Called by the API (targets, the policy's routes; a plan through plans/policy_check.py) and by the worker
(runs/pinning.py, just before a tool starts).
Services never commit: the caller owns the transaction.
"""

from __future__ import annotations

import ipaddress

from sqlalchemy.orm import Session

from kneeboard.lab_link import HOST_ADDR, PREFIX_LEN
from kneeboard.policy.check import check_address
from kneeboard.policy.models import TargetPolicy
from kneeboard.policy.schemas import Policy, PolicyOut

ROW_ID = 1


def default_policy() -> Policy:
    """Loopback and the lab's own network; no host names, no extra caps."""
    lab = ipaddress.ip_interface(f"{HOST_ADDR}/{PREFIX_LEN}").network
    return Policy(networks=["127.0.0.0/8", "::1/128", str(lab)])


def get_policy(*, session: Session) -> PolicyOut:
    """The policy in force: the stored one, or the default."""
    row = session.get(TargetPolicy, ROW_ID)
    if row is None:
        return PolicyOut(**default_policy().model_dump())
    return PolicyOut(**row.document, updated_by=row.updated_by, updated_at=row.updated_at)


def put_policy(body: Policy, *, actor: str | None, session: Session) -> PolicyOut:
    """Replace the policy (existing targets stay; they are checked again at launch and before each tool)."""
    row = session.get(TargetPolicy, ROW_ID)
    document = body.model_dump(mode="json")
    if row is None:
        row = TargetPolicy(id=ROW_ID, document=document)
        session.add(row)
    row.document, row.updated_by = document, actor
    session.flush()
    return get_policy(session=session)


def check_host(host: str, *, loc: tuple, session: Session) -> list[str]:
    """The addresses of `host`; PolicyRefused (422 naming `loc` and the policy) when any is not allowed."""
    return check_address(host, get_policy(session=session), loc=loc)
