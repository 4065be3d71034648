"""Firing a point's events at their times, beside the load: one thread, each action bounded in time, every event
recorded with the epoch time it was fired and done (or why it failed), the lab made whole again after the point."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterator

from kneeboard.events.actions import ACTIONS, EventFailed, restore

ACTION_TIMEOUT_S = 15.0  # a start waits for its backend to answer; past this the next events fire late (and say so)


class Fired:
    """What happened to a point's events: one record each, in order, and warnings."""

    def __init__(self) -> None:
        self.records: list[dict] = []
        self.warnings: list[str] = []


@contextmanager
def during(events: list[dict], refused: bool) -> Iterator[Fired]:
    """Fire `events` ({at_s, action, value}) at their times from now (the load's start) while the body runs the point;
    events still due when it ends are not fired (a warning each); afterwards the lab is made whole."""
    fired = Fired()
    if refused or not events:
        yield fired
        return
    start, done = time.time(), threading.Event()
    thread = threading.Thread(target=_fire, args=(sorted(events, key=lambda e: e["at_s"]), start, done, fired), daemon=True)
    thread.start()
    try:
        yield fired
    finally:
        done.set()
        thread.join(ACTION_TIMEOUT_S + 1)
        fired.warnings += restore(fired.records)


def _fire(events: list[dict], start: float, done: threading.Event, fired: Fired) -> None:
    for event in events:
        if done.wait(max(0.0, start + event["at_s"] - time.time())):
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s not fired: the point ended first")
            continue
        record = {**event, "t": time.time()}
        try:
            record.update(ACTIONS[event["action"]].apply(event["value"]))
        except EventFailed as exc:
            record["error"] = str(exc)
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s failed: {exc}")
        except Exception as exc:  # noqa: BLE001 - an action's bug must not take the point with it
            record["error"] = f"{type(exc).__name__}: {exc}"
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s failed: {record['error']}")
        record["done"] = time.time()
        fired.records.append(record)
