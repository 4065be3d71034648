"""A plan's events against what exists: lab actions need a lab target, host actions an observer's credential, a
webhook action a webhook subscribed to "action". Each refusal is a 422 naming the event's field."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.agentlink.models import OBSERVE, AgentCredential
from kneeboard.errors import invalid
from kneeboard.events.actions import ACTIONS
from kneeboard.lab.namespace import LAB_ADDR
from kneeboard.webhooks.models import Webhook


def check_events(body, host: str, *, session: Session) -> None:
    """Raise Invalid for the first event that cannot run against `host` (the plan's target address)."""
    for i, phase in enumerate(body.phases):
        for j, event in enumerate(phase.events or []):
            loc = (body.tool, "phases", i, "events", j)
            if (why := _refusal(event, host, session)) is not None:
                raise invalid((*loc, why[0]), why[1])


def _refusal(event, host: str, session: Session) -> tuple[str, str] | None:
    action = ACTIONS[event.action]
    if event.action.startswith("lab.") and host != LAB_ADDR:
        return "action", f"{event.action} acts on the lab's servers: the target must be a lab target ({LAB_ADDR}), not {host}"
    if action.runs_on == "observer":
        held = session.scalar(select(AgentCredential.id).where(AgentCredential.agent == event.observer, AgentCredential.role == OBSERVE))
        if held is None:
            return "observer", f"no observer credential is named {event.observer!r} (an admin makes one with role observe)"
    if event.action == "webhook.send":
        hook = session.get(Webhook, int(event.value))
        if hook is None or not hook.enabled or "action" not in (hook.events or []):
            return "value", f"webhook {event.value} does not exist, is disabled, or is not subscribed to \"action\""
    return None
