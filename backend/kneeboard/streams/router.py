"""GET /api/v1/campaigns/{id}/events: a campaign's live progress as server-sent events, served from this
process's live hub (streams/hub.py)."""

from __future__ import annotations

import itertools
import json

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from kneeboard.auth.deps import CurrentUser
from kneeboard.campaigns import service
from kneeboard.db import session_scope
from kneeboard.states import CAMPAIGN_TERMINAL
from kneeboard.streams.hub import CLOSED, hub

router = APIRouter(tags=["campaigns"])


def _snapshot(campaign_id: int) -> dict:
    with session_scope() as session:
        campaign = service.get_campaign(campaign_id, session=session)
        described = service.describe(campaign, session=session)
        return {"status": described["status"], "progress": described["progress"], "summary": described["summary"]}


def _sse(kind: str, data: dict, event_id: int) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, default=str)}\n\n"


SSE_RETRY_MS = 3000  # how long a browser waits before reconnecting a dropped stream


def _first_event_id(request: Request) -> int:
    """Ids go on from the Last-Event-ID a reconnecting browser sends (the stream restarts from a fresh snapshot)."""
    last = request.headers.get("last-event-id", "")
    return int(last) + 1 if last.isdigit() else 0


@router.get("/campaigns/{campaign_id}/events", responses={429: {"description": "too many live streams (Retry-After)"}})
async def events(campaign_id: int, request: Request, user: CurrentUser):
    """Live progress as server-sent events: `progress` each second; `sample`, `point`, `status`, `search` and
    `point_event` (one of a running point's events, as it fires and again when it is done or failed: point_id, at_s,
    action, value, t, done, error) as they happen; then `end`.
    Each event has an id and the stream a `retry:` hint, so a browser reconnects by itself with Last-Event-ID.
    Streams are capped per user (SSE_MAX_PER_USER) and per server (SSE_MAX_TOTAL): 429 beyond."""
    first = await run_in_threadpool(_snapshot, campaign_id)
    ids = itertools.count(_first_event_id(request))
    live_hub = hub(_snapshot)
    live_hub.admit(user.username)

    async def stream():
        yield f"retry: {SSE_RETRY_MS}\n\n"
        yield _sse("progress", first, next(ids))
        if first["status"] in CAMPAIGN_TERMINAL:
            yield _sse("end", first, next(ids))
            return
        queue = live_hub.watch(campaign_id)
        try:
            while (message := await queue.get()) is not CLOSED:
                yield _sse(message["event"], message["data"], next(ids))
                if message["event"] == "end":
                    return
        finally:
            live_hub.unwatch(campaign_id, queue)

    return Slotted(stream(), release=lambda: live_hub.leave(user.username), media_type="text/event-stream",
                   headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip


class Slotted(StreamingResponse):
    """A stream that gives its slot back however it ends (finished, client gone, or cancelled before it began)."""

    def __init__(self, content, *, release, **kwargs) -> None:  # noqa: ANN001
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()
