"""Observe assignments on the server side. The worker assigns a point to the plan's observer and waits, until the
load's start, for its acknowledgement; after the point it waits (bounded) for its report. The API hands an observer
its own assignments only (long-poll), and takes its acknowledgement, signs of life and report. The observer reaches
Redis and the database only through the API."""

from __future__ import annotations

import time

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.agentlink.service import async_broker, broker
from kneeboard.agents.models import Agent
from kneeboard.agents.service import is_alive
from kneeboard.auth.errors import Forbidden
from kneeboard import live
from kneeboard.campaigns.models import Point
from kneeboard.db import session_scope, utcnow
from kneeboard.errors import Conflict
from kneeboard.observers.models import ObserveAssignment
from kneeboard.observers.schemas import HostEventRecord, ObserveAck, ObservedProfile, ObserveAssignmentOut

ACK_LEAD_S = 2.0  # an assignment is made this long before the load starts; the observer acknowledges within it
ALIVE_MS = 3000  # an observer beats every second while it holds an assignment; three missed beats: it is gone
REPORT_WAIT_S = 60.0  # after the window, how long the worker waits for a live observer's report (it folds at nice 19)
POLL_S = 0.1
ASSIGNED, ACKNOWLEDGED, REPORTED, CLOSED = "assigned", "acknowledged", "reported", "closed"


def _work(observer: str) -> str:
    """A list the worker pushes to when it assigns `observer` a point: it wakes the observer's work poll."""
    return f"kneeboard:observer:{observer}:work"


def _over(assignment_id: int) -> str:
    """Present once the worker says the assignment's load ended."""
    return f"kneeboard:observe:{assignment_id}:over"


def _alive(assignment_id: int) -> str:
    """Present while the observer works on the assignment (expires ALIVE_MS after its last beat)."""
    return f"kneeboard:observe:{assignment_id}:alive"


# the worker's side


def assign(point_id: int, observer: str, start_s: float, length_s: float, *, what: str = "CPU profile",
           process: str | None = None, frequency_hz: int | None = None, events: list[dict] | None = None,
           settings: dict | None = None) -> tuple[int | None, list[str]]:  # fmt: skip
    """Assign `observer` the point's window [start + start_s, + length_s] — a CPU profile of `process`, or the host
    `events` — then wait until the load's start (ACK_LEAD_S from now) for its acknowledgement; returns (the
    assignment's id, or None when the observer is not alive; the warnings for the point, each starting with `what`).
    Call just before the load starts: it starts when this returns."""
    start_at = time.time() + ACK_LEAD_S
    with session_scope() as session:
        agent, point = session.get(Agent, observer), session.get(Point, point_id)
        if agent is None or (agent.facts or {}).get("role") != "observer" or not is_alive(agent):
            return None, [f"{what} not taken: observer {observer} is not registered or not alive (start it on the server's host "
                          f"with `kneeboard agent --observe --name {observer} …`: docs/profiling.md)"]
        row = ObserveAssignment(observer=observer, campaign_id=point.campaign_id, point_id=point_id, attempt=point.attempt,
                                process=process, frequency_hz=frequency_hz, events=events, settings=settings, start_at=start_at,
                                since=start_at + start_s, until=start_at + start_s + length_s, status=ASSIGNED)  # fmt: skip
        session.add(row)
        session.flush()
        assignment_id = row.id
    broker().rpush(_work(observer), str(assignment_id))
    broker().expire(_work(observer), int(ACK_LEAD_S) + 1)
    while (row := _read(assignment_id)).status == ASSIGNED and time.time() < start_at:
        time.sleep(POLL_S)
    time.sleep(max(0.0, start_at - time.time()))
    if row.status == ASSIGNED:
        return assignment_id, [f"{what}: observer {observer} did not acknowledge its assignment before the load started"]
    if row.process_seen is False:
        return assignment_id, [f"{what}: observer {observer} saw no process named {process!r} (its /proc/*/comm) "
                               "when it acknowledged the point"]
    return assignment_id, []


def end_load(assignment_id: int) -> None:
    """The point's load is over: the observer's next sign of life is told so (an assignment of events puts back
    what its events took out now, then reports)."""
    broker().set(_over(assignment_id), "1", ex=int(REPORT_WAIT_S) * 2)


def _read(assignment_id: int) -> ObserveAssignment:
    with session_scope() as session:
        row = session.get(ObserveAssignment, assignment_id)
        session.expunge(row)
        return row


def await_report(assignment_id: int, load_ended: float, *, whole_window: bool = True) -> tuple[ObservedProfile | None, str | None]:
    """The observer's report (or why there is none): waited for while the observer beats, at most REPORT_WAIT_S after
    the window; the assignment is closed after (a late report is refused). `whole_window`: a load that ended before
    the window's end leaves nothing to report (a profile's; events report what they did however short the load)."""
    try:
        row = _read(assignment_id)
        if whole_window and load_ended < row.until:
            return None, f"the point ended before its steady window did ({row.until - load_ended:.1f} s early)"
        while time.time() < min(row.until, load_ended) + REPORT_WAIT_S:
            row = _read(assignment_id)
            if row.status == REPORTED:
                return ObservedProfile.model_validate(row.report), None
            if not broker().exists(_alive(assignment_id)):
                if row.status == ASSIGNED:
                    return None, f"observer {row.observer} never took its assignment (is it running?)"
                return None, (f"observer {row.observer} stopped answering during the point (no sign of life for "
                              f"{ALIVE_MS / 1000:g} s); the point is measured without it")
            time.sleep(POLL_S * 2)
        return None, f"observer {row.observer} did not report within {REPORT_WAIT_S:g} s of the window's end"
    finally:
        _close(assignment_id)


def _close(assignment_id: int) -> None:
    with session_scope() as session:
        session.get(ObserveAssignment, assignment_id).status = CLOSED


# the API's side (the observer's calls)


async def take(observer: str, wait_s: float) -> dict | None:
    """The observer's oldest assignment not yet acknowledged whose load has not started, within `wait_s`."""
    client, deadline = async_broker(), time.monotonic() + wait_s
    while True:
        found = await run_in_threadpool(_waiting, observer)
        if found is not None:
            return found
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        await client.blpop([_work(observer)], timeout=min(left, 5.0))


def _waiting(observer: str) -> dict | None:
    with session_scope() as session:
        row = session.scalar(select(ObserveAssignment).where(ObserveAssignment.observer == observer, ObserveAssignment.status == ASSIGNED,
                                                             ObserveAssignment.start_at > time.time()).order_by(ObserveAssignment.id))
        return ObserveAssignmentOut.model_validate(row).model_dump() if row is not None else None


def _own(observer: str, assignment_id: int, session: Session) -> ObserveAssignment:
    """The assignment when it is `observer`'s; Forbidden otherwise (whether or not it exists)."""
    row = session.get(ObserveAssignment, assignment_id, with_for_update=True)
    if row is None or row.observer != observer:
        raise Forbidden(f"observe assignment {assignment_id} is not observer {observer}'s")
    return row


def acknowledge(observer: str, assignment_id: int, body: ObserveAck, *, session: Session) -> ObserveAssignment:
    """The observer took its assignment (Conflict once the load started without it, or twice)."""
    row = _own(observer, assignment_id, session)
    if row.status != ASSIGNED:
        raise Conflict(f"observe assignment {assignment_id} is {row.status}: it can no longer be acknowledged")
    row.status, row.acked_at, row.process_seen = ACKNOWLEDGED, utcnow(), body.process_seen
    broker().set(_alive(assignment_id), "1", px=ALIVE_MS)
    return row


def alive(observer: str, assignment_id: int, *, session: Session) -> str | None:
    """Renew the assignment's sign of life; why to stop now (the worker closed it), or None."""
    row = _own(observer, assignment_id, session)
    broker().set(_alive(assignment_id), "1", px=ALIVE_MS)
    if row.status == CLOSED:
        return "the point is over: its worker no longer waits for this profile"
    return "the point's load ended" if broker().exists(_over(assignment_id)) else None


def _given(row: ObserveAssignment, records: list[HostEventRecord]) -> None:
    """Conflict when a record names an event (action, value, at_s) the assignment did not give."""
    given = {(e["action"], e["value"], float(e["at_s"])) for e in row.events or []}
    strange = next((r for r in records if (r.action, r.value, r.at_s) not in given), None)
    if strange is not None:
        raise Conflict(f"observe assignment {row.id} gave no event {strange.action} {strange.value} at {strange.at_s} s")


def tell(observer: str, assignment_id: int, body: HostEventRecord, *, session: Session) -> None:
    """One of an assignment's host events as it fires (and again when done), told on the campaign's live stream; the
    report after the load stays what is stored. Conflict unless the assignment has events and is under way."""
    row = _own(observer, assignment_id, session)
    if row.events is None or row.status != ACKNOWLEDGED:
        raise Conflict(f"observe assignment {assignment_id} is {row.status}{'' if row.events else ' and has no events'}: nothing to tell")
    _given(row, [body])
    live.publish(row.campaign_id, "point_event", {"point_id": row.point_id, "observer": observer, **body.model_dump(exclude_none=True)})


def report(observer: str, assignment_id: int, body: ObservedProfile, *, session: Session) -> ObserveAssignment:
    """The observer's profile of its acknowledged assignment, once, while the worker waits (Conflict otherwise)."""
    row = _own(observer, assignment_id, session)
    if row.status != ACKNOWLEDGED:
        raise Conflict(f"observe assignment {assignment_id} is {row.status}: its report is no longer taken")
    if row.events is None and body.events:
        raise Conflict(f"observe assignment {assignment_id} gave no events to report")
    if (row.settings is None) != (body.host is None) and body.error is None:
        raise Conflict(f"observe assignment {assignment_id} {'gave no host settings' if row.settings is None else 'is a host one'}: "
                       "its report must match")
    if body.host is not None and {d.name for d in body.host.applied} - set(row.settings):
        raise Conflict(f"observe assignment {assignment_id} asked for no change of those host settings")
    if body.process_cpu and (row.frequency_hz is not None or row.events or {r.process for r in body.process_cpu} != {row.process}):
        raise Conflict(f"observe assignment {assignment_id} asked for no CPU reading of those processes")
    _given(row, body.events)
    if body.profile is not None and (body.profile.process, body.profile.frequency_hz) != (row.process, row.frequency_hz):
        raise Conflict(f"the report profiles {body.profile.process} at {body.profile.frequency_hz} Hz; the assignment asked for "
                       f"{row.process} at {row.frequency_hz} Hz")
    row.status, row.reported_at, row.report = REPORTED, utcnow(), body.model_dump()
    return row
