"""Target policy operations: read and replace the policy, check hosts and plans against it.

Called by the API (targets, plans, launch) and by the worker (runs/pinning.py, just before a tool starts).
Services never commit: the caller owns the transaction.
"""

from __future__ import annotations

import ipaddress

from sqlalchemy.orm import Session

from kneeboard.errors import PolicyRefused, invalid
from kneeboard.plans.schemas import AnyPlan
from kneeboard.policy.caps import check_caps
from kneeboard.policy.check import check_address
from kneeboard.policy.models import TargetPolicy
from kneeboard.policy.schemas import Policy, PolicyOut
from kneeboard.tools import node
from kneeboard.tools.exporter import adapter as exporter
from kneeboard.validators import metrics_host

ROW_ID = 1


def default_policy() -> Policy:
    """Loopback and the lab's own network; no host names, no extra caps."""
    from kneeboard.lab import namespace

    lab = ipaddress.ip_interface(f"{namespace.HOST_ADDR}/{namespace.PREFIX_LEN}").network
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


def check_plan(body: AnyPlan, *, role: str | None, session: Session) -> None:
    """A plan's target host, ping monitor hosts and points against the policy and `role`'s caps (None: no caps)."""
    from kneeboard.plans.expand import expand
    from kneeboard.targets.models import Target

    policy = get_policy(session=session)
    target = session.get(Target, body.target_id)
    if target is not None:
        check_address(target.host, policy, loc=(body.tool, "target_id"))
    for i, monitor in enumerate(body.monitors):
        if getattr(monitor, "host", None):  # a ping monitor sends traffic too
            check_address(monitor.host, policy, loc=(body.tool, "monitors", i, "host"))
        if monitor.kind == node.ADAPTER.name and target is not None:  # the node monitor scrapes the target's metrics_url
            _check_scraped(target.metrics_url, policy, loc=(body.tool, "monitors", i, "kind"))
        if monitor.kind == exporter.ADAPTER.name and target is not None:  # an exporter monitor names one of the target's
            _check_exporter(target, monitor.exporter, policy, loc=(body.tool, "monitors", i, "exporter"))
    if role is not None:
        check_caps(expand(body), policy.role_caps.get(role), role=role, tool=body.tool)


def _check_scraped(metrics_url: str | None, policy: Policy, *, loc: tuple) -> None:
    """A node monitor needs its target's metrics_url, whose host the policy allows."""
    if not metrics_url:
        raise invalid(loc, "the node monitor scrapes the target's metrics_url, and this target has none; set it on the target")
    check_address(metrics_host(metrics_url), policy, loc=loc)


def _check_exporter(target, name: str, policy: Policy, *, loc: tuple) -> None:  # noqa: ANN001 - a Target row
    """An exporter monitor names one of its target's exporters, whose URL's host the policy allows."""
    found = next((e for e in target.exporters or [] if e["name"] == name), None)
    if found is None:
        known = ", ".join(e["name"] for e in target.exporters or []) or "none"
        raise invalid(loc, f"the target has no exporter named {name!r} (its exporters: {known}); add it to the target")
    check_address(metrics_host(found["url"]), policy, loc=loc)


def check_launch(plan: dict, *, role: str | None, session: Session) -> None:
    """A stored plan, about to be launched, against the policy in force now (422 naming `plan_id`)."""
    from pydantic import TypeAdapter

    from kneeboard.plans.schemas import PlanBody

    body = TypeAdapter(PlanBody).validate_python({k: v for k, v in plan.items() if k != "profile_document"})
    try:
        check_plan(body, role=role, session=session)
    except PolicyRefused as exc:
        raise PolicyRefused(("plan_id",), f"the plan cannot be launched: {exc}") from None
