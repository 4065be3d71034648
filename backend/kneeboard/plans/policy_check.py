"""A plan against the target policy in force: its target's host, its ping monitors' hosts, what its node and exporter
monitors scrape, and its points against the caps of the role that creates or launches it (plans/caps.py). The policy
itself (its rules, the stored document, a host's check) is policy/'s, below plans/.

Called by the API (plans' routes, the launch path) and by schedules. Services never commit: the caller owns the
transaction.
"""

from __future__ import annotations

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from kneeboard.errors import PolicyRefused, invalid
from kneeboard.plans.caps import check_caps
from kneeboard.plans.expand import expand
from kneeboard.plans.schemas import AnyPlan, PlanBody
from kneeboard.policy.check import check_address
from kneeboard.policy.schemas import Policy
from kneeboard.policy.service import get_policy
from kneeboard.targets.models import Target
from kneeboard.tools import node
from kneeboard.tools.exporter import adapter as exporter
from kneeboard.validators import metrics_host


def check_plan(body: AnyPlan, *, role: str | None, session: Session) -> None:
    """A plan's target host, ping monitor hosts and points against the policy and `role`'s caps (None: no caps)."""
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
    body = TypeAdapter(PlanBody).validate_python({k: v for k, v in plan.items() if k != "profile_document"})
    try:
        check_plan(body, role=role, session=session)
    except PolicyRefused as exc:
        raise PolicyRefused(("plan_id",), f"the plan cannot be launched: {exc}") from None
