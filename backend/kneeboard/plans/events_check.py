"""A plan's events against what exists: an observer's action needs an observer credential, and each provider's action
what its registration admits (a lab action a lab target, a webhook action a webhook subscribed to "action"). Each
refusal is a 422 naming the event's field. Who holds an observer credential is agentlink's to say: it registers at start
(kneeboard/extensions.py), and with none registered every observer's action is refused."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from kneeboard.errors import invalid
from kneeboard.events.actions import ACTIONS

OBSERVERS: list[Callable[[str, Session], bool]] = []  # whether a name holds an observer credential (agentlink/, at start)


def observers_from(holds: Callable[[str, Session], bool]) -> None:
    """Register `holds(name, session)`: whether an observer credential is named `name` (agentlink/credentials.py)."""
    if holds not in OBSERVERS:
        OBSERVERS.append(holds)


def check_events(body, host: str, *, session: Session) -> None:
    """Raise Invalid for the first event that cannot run against `host` (the plan's target address)."""
    for i, phase in enumerate(body.phases):
        for j, event in enumerate(phase.events or []):
            loc = (body.tool, "phases", i, "events", j)
            if (why := _refusal(event, host, session)) is not None:
                raise invalid((*loc, why[0]), why[1])


def _refusal(event, host: str, session: Session) -> tuple[str, str] | None:
    action = ACTIONS[event.action]
    if action.admits is not None and (why := action.admits(event, host, session)) is not None:
        return why
    if action.runs_on == "observer":
        if not any(holds(event.observer, session) for holds in OBSERVERS):
            return "observer", f"no observer credential is named {event.observer!r} (an admin makes one with role observe)"
    return None
