"""The failover figures of a point's fired events, read against its request outcomes (pure: analysis/failover.py)."""

from __future__ import annotations

from kneeboard.analysis import failover
from kneeboard.events.actions import ACTIONS


def per_event(stored_outcomes: dict | None, records: list[dict]) -> list[dict]:
    """For each event that took a backend out (and did), its failover figures: until the next such event, with the
    recovery timed from when that backend was back (its start listening, or its enable) when a later event brought it
    back. [] without outcomes (a tool that counts none, or outcomes off)."""
    if not stored_outcomes:
        return []
    o = failover.Outcomes.from_stored(stored_outcomes)
    done = [r for r in records if not r.get("error")]
    found = []
    for i, event in enumerate(done):
        if not ACTIONS[event["action"]].stops:
            continue
        later = done[i + 1:]
        back = next((r for r in later if ACTIONS[r["action"]].starts and r["value"] == event["value"]), None)
        until = next((r["t"] for r in later if ACTIONS[r["action"]].stops), None)
        listening = (back.get("listening") or back["t"]) if back else None
        found.append({"action": event["action"], "value": event["value"], "at_s": event["at_s"],
                      **failover.failover(o, event["t"], listening, event["value"] if back else None, until)})
    return found


def distribution(stored_outcomes: dict | None) -> dict | None:
    """The spread over the backends and persistence (per connection; per source when several agents loaded the point)
    of a point whose outcomes counted a header; None otherwise."""
    if not stored_outcomes or not stored_outcomes.get("header"):
        return None
    return failover.distribution(failover.Outcomes.from_stored(stored_outcomes), stored_outcomes.get("sources"))
