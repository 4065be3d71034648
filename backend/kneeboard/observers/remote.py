"""Host events on the worker's side: a point's host.* events go, one assignment per observer, to the observers that
run them (observers/service.py), acknowledged before the load starts; when the load ends the observers are told,
put back what the events took out, and report each event with its time on the server's clock."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

from kneeboard.events.schedule import Fired
from kneeboard.observers import service as observing

PREFIX = "host events"


@contextmanager
def beside(point_id: int, by_observer: dict[str, list[dict]], duration_s: float, refused: bool) -> Iterator[Fired]:
    """Around the point's load: assign each observer its events, and after the load collect what they did into the
    yielded Fired (records sorted by time, each with its observer; warnings for what failed, was refused or put back)."""
    fired = Fired()
    if refused or not by_observer:
        yield fired
        return
    assigned = []
    for observer, events in by_observer.items():
        body = [{k: e[k] for k in ("at_s", "action", "value")} for e in events]
        assignment, warnings = observing.assign(point_id, observer, 0.0, duration_s, what=PREFIX, events=body)
        fired.warnings += warnings
        if assignment is not None:
            assigned.append((observer, assignment))
    try:
        yield fired
    finally:
        ended = time.time()
        for _observer, assignment in assigned:
            observing.end_load(assignment)
        for observer, assignment in assigned:
            _collect(fired, observer, assignment, ended)
        fired.records.sort(key=lambda r: r["t"])


def _collect(fired: Fired, observer: str, assignment: int, ended: float) -> None:
    report, why = observing.await_report(assignment, ended, whole_window=False)
    if report is None:
        fired.warnings.append(f"{PREFIX}: {why}; what observer {observer}'s events took out is put back at its own deadline")
        return
    for record in report.events:
        fired.records.append(record.model_dump(exclude_none=True) | {"observer": observer})
        if record.error:
            fired.warnings.append(f"event {record.action} {record.value} at {record.at_s:g} s on observer {observer} failed: {record.error}")
    for record in report.reverted:
        said = f"could not put back {record.value} ({record.action}): {record.error}" if record.error else \
            f"{record.action} {record.value} after the point: an event took it out and none put it back"
        fired.warnings.append(f"observer {observer}: {said}")
        fired.reverted.append(record.model_dump(exclude_none=True) | {"observer": observer})
