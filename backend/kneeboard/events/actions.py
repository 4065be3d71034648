"""The catalogue of point events: the only way a plan acts on a system under test during a point (never a command from
the plan). Each takes a value from a fixed set and returns what it did; a failure raises EventFailed.

The catalogue imports none of its providers: each registers its own actions at start (kneeboard/extensions.py) —
the lab's (`lab.*`, lab/events.py, run by the worker), a webhook's (`webhook.send`, webhooks/fire.py, run by the
worker) and the observer's host actions (`host.*`, observers/actions.py, run by an observer on the server's host)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

Runner = Literal["worker", "observer"]
Admits = Callable[..., "tuple[str, str] | None"]  # (event, target host, session) → (field, why) when it cannot run there


class EventFailed(RuntimeError):
    """The action could not be done (the lab is down, the backend already stopped…): a warning on the point."""


@dataclass(frozen=True)
class EventAction:
    """One registered action: what it does, the values it takes, and the code that does it (returns facts to record)."""

    name: str
    description: str
    values: tuple[str, ...]
    apply: Callable[..., dict]  # (value, about=None): about is the point's {campaign_id, point_id, at_s}, for a webhook's body
    stops: bool = False  # takes a backend out: a failure event, read by the failover figures
    starts: bool = False  # brings one back: its `listening` time starts the recovery
    impairs: bool = False  # changes the lab's link (a registered lab action's value; 0 restores): the point counts its cost
    runs_on: Runner = "worker"  # "observer": run by the observer the event names, on the server's host
    check: Callable[[str], str | None] | None = None  # the value's own check, when not one of `values`
    admits: Admits | None = None  # the event against what exists (a lab target, a webhook…), at plan check (plans/events_check.py)

    def refusal(self, value: str) -> str | None:
        """Why `value` is not one this action takes (→ 422), or None."""
        if self.check is not None:
            return self.check(value)
        return None if value in self.values else f"{self.name} takes one of {', '.join(self.values)}, not {value!r}"


ACTIONS: dict[str, EventAction] = {}  # filled at start by the providers, in registration order
AFTER_POINT: list[Callable[[list[dict]], list[str]]] = []  # put back what a point's events left out; the warnings said


def register(*actions: EventAction, after_point: Callable[[list[dict]], list[str]] | None = None) -> None:
    """Add a provider's actions to the catalogue (again: replaced in place), and what it puts back after each point."""
    for action in actions:
        ACTIONS[action.name] = action
    if after_point is not None and after_point not in AFTER_POINT:
        AFTER_POINT.append(after_point)


def host_actions() -> set[str]:
    """The registered actions an observer runs on the server's host."""
    return {name for name, a in ACTIONS.items() if a.runs_on == "observer"}


def impairing(events: list[dict]) -> bool:
    """True when any of a point's events changes the lab's link (the point then counts what the link dropped)."""
    return any(ACTIONS[e["action"]].impairs for e in events)


def on_worker(events: list[dict]) -> list[dict]:
    """The events the worker itself fires (lab and webhook actions)."""
    return [e for e in events if ACTIONS[e["action"]].runs_on == "worker"]


def on_observers(events: list[dict]) -> dict[str, list[dict]]:
    """The host events by the observer that runs them."""
    found: dict[str, list[dict]] = {}
    for event in events:
        if ACTIONS[event["action"]].runs_on == "observer":
            found.setdefault(event["observer"], []).append(event)
    return found
