"""Firing a point's events at their times, beside the load: one thread, each action bounded in time, every event
recorded with the epoch time it was fired and done (or why it failed), told at once on the campaign's live channel,
and the lab made whole again after the point."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import Iterator

from kneeboard import live
from kneeboard.events.actions import ACTIONS, AFTER_POINT, EventFailed

ACTION_TIMEOUT_S = 15.0  # a start waits for its backend to answer; past this the next events fire late (and say so)
TOLD_WAIT_S = 2.0  # how long the point's end waits for its events to be told (so they come before its `point` message)


class Fired:
    """What happened to a point's events: one record each, in order, warnings, and what observers put back after
    the load (host events: observers/remote.py)."""

    def __init__(self) -> None:
        self.records: list[dict] = []
        self.warnings: list[str] = []
        self.reverted: list[dict] = []


class _Teller:
    """Tells a point's events on its campaign's live channel (`point_event`) from a thread of its own, in order: a slow
    or absent Redis never delays the next event. Without a campaign it tells nobody."""

    def __init__(self, campaign_id: int | None, point_id: int | None) -> None:
        self.campaign_id, self.point_id = campaign_id, point_id
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="point-events-told") if campaign_id is not None else None
        self.last: Future | None = None

    def tell(self, record: dict) -> None:
        """Queue one state of an event (fired: `t`; then `done`, and `error` if it failed) to be published."""
        if self.pool is not None:
            self.last = self.pool.submit(live.publish, self.campaign_id, "point_event", {"point_id": self.point_id, **record})

    def close(self) -> None:
        """Let what is queued go out, waiting at most TOLD_WAIT_S for it."""
        if self.pool is not None:
            self.pool.shutdown(wait=False)
            if self.last is not None:
                wait([self.last], TOLD_WAIT_S)


@contextmanager
def during(events: list[dict], refused: bool, *, campaign_id: int | None = None, point_id: int | None = None) -> Iterator[Fired]:
    """Fire `events` ({at_s, action, value}) at their times from now (the load's start) while the body runs the point;
    events still due when it ends are not fired (a warning each); afterwards the lab is made whole. With `campaign_id`
    each event is told on the campaign's live channel as it fires and again when it is done or failed."""
    fired = Fired()
    if refused or not events:
        yield fired
        return
    start, done, teller = time.time(), threading.Event(), _Teller(campaign_id, point_id)
    thread = threading.Thread(target=_fire, args=(sorted(events, key=lambda e: e["at_s"]), start, done, fired, teller), daemon=True)
    thread.start()
    try:
        yield fired
    finally:
        done.set()
        thread.join(ACTION_TIMEOUT_S + 1)
        teller.close()
        for put_back in AFTER_POINT:  # what each provider left out (the lab: lab/orphans.py)
            fired.warnings += put_back(fired.records)


def _fire(events: list[dict], start: float, done: threading.Event, fired: Fired, teller: _Teller) -> None:
    for event in events:
        if done.wait(max(0.0, start + event["at_s"] - time.time())):
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s not fired: the point ended first")
            continue
        record = {**event, "t": time.time()}
        teller.tell(dict(record))
        try:
            record.update(ACTIONS[event["action"]].apply(event["value"], {"campaign_id": teller.campaign_id,
                                                                          "point_id": teller.point_id, "at_s": event["at_s"]}))
        except EventFailed as exc:
            record["error"] = str(exc)
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s failed: {exc}")
        except Exception as exc:  # noqa: BLE001 - an action's bug must not take the point with it
            record["error"] = f"{type(exc).__name__}: {exc}"
            fired.warnings.append(f"event {event['action']} {event['value']} at {event['at_s']:g} s failed: {record['error']}")
        record["done"] = time.time()
        fired.records.append(record)
        teller.tell(dict(record))
