"""The live hub of one API process: ONE Redis pattern subscription to every campaign's channel, fanned out in
memory to the streams watching each campaign, and ONE progress read per watched campaign a second (not one per
stream). Streams are capped per user and in total; a stream too slow to keep up is closed (the browser
reconnects with Last-Event-ID and starts from a fresh snapshot) instead of holding memory."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from kneeboard.config import get_settings
from kneeboard.errors import TooMany
from kneeboard.states import CAMPAIGN_TERMINAL

log = logging.getLogger(__name__)
PATTERN = "kneeboard:campaign:*"
QUEUE = 512  # events a stream may have waiting before it counts as too slow
PROGRESS_EVERY_S = 1.0
CLOSED = {"event": "closed", "data": {}}  # the stream must end (too slow, or the campaign ended)


@dataclass
class _Watched:
    """One campaign with its streams and the task that reads its progress for all of them."""

    streams: set[asyncio.Queue] = field(default_factory=set)
    poller: asyncio.Task | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """Fan-out of live events and progress to the streams of this process."""

    def __init__(self, snapshot: Callable[[int], Any]) -> None:
        self.snapshot = snapshot  # campaign id -> its progress dict (a blocking read, run in a thread)
        self.watched: dict[int, _Watched] = {}
        self.per_user: dict[str, int] = {}
        self.reader: asyncio.Task | None = None
        self.connections = 0  # Redis subscriptions opened (one at a time; more only after a lost connection)

    @property
    def total(self) -> int:
        """Streams open in this process."""
        return sum(self.per_user.values())

    def admit(self, user: str) -> None:
        """Count a new stream of `user`; TooMany beyond SSE_MAX_PER_USER or SSE_MAX_TOTAL."""
        settings = get_settings()
        if self.per_user.get(user, 0) >= settings.sse_max_per_user:
            raise TooMany(f"{user} already has {settings.sse_max_per_user} live streams open (SSE_MAX_PER_USER); close one", 5)
        if self.total >= settings.sse_max_total:
            raise TooMany(f"this server already serves {settings.sse_max_total} live streams (SSE_MAX_TOTAL)", 5)
        self.per_user[user] = self.per_user.get(user, 0) + 1

    def leave(self, user: str) -> None:
        """A stream of `user` ended."""
        self.per_user[user] -= 1
        if not self.per_user[user]:
            del self.per_user[user]

    def watch(self, campaign_id: int) -> asyncio.Queue:
        """A queue of the campaign's events for one stream (`progress` each second, `end` once it ended)."""
        if self.reader is None or self.reader.done():
            self.reader = asyncio.create_task(self._read())
        watched = self.watched.setdefault(campaign_id, _Watched())
        queue: asyncio.Queue = asyncio.Queue(QUEUE)
        watched.streams.add(queue)
        if watched.poller is None or watched.poller.done():
            watched.poller = asyncio.create_task(self._poll(campaign_id, watched))
        return queue

    def unwatch(self, campaign_id: int, queue: asyncio.Queue) -> None:
        """A stream stopped watching; the campaign's poller stops with its last stream."""
        watched = self.watched.get(campaign_id)
        if watched is None:
            return
        watched.streams.discard(queue)
        if not watched.streams:
            if watched.poller is not None:
                watched.poller.cancel()
            del self.watched[campaign_id]

    def _deliver(self, campaign_id: int, message: dict) -> None:
        watched = self.watched.get(campaign_id)
        if watched is None:
            return
        for queue in list(watched.streams):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:  # too slow: end it now rather than buffer without bound
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(CLOSED)
                watched.streams.discard(queue)
        if message["event"] in {"status", "point"}:
            watched.wake.set()  # progress changed: read it now, not at the next second

    async def _read(self) -> None:
        """The process's one subscription; reconnects with backoff when Redis goes away."""
        delay = 0.5
        while True:
            client = aioredis.Redis.from_url(get_settings().redis_url)
            try:
                pubsub = client.pubsub()
                await pubsub.psubscribe(PATTERN)
                self.connections += 1
                delay = 0.5
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    try:
                        campaign_id = int(message["channel"].rsplit(b":", 1)[1])
                        self._deliver(campaign_id, json.loads(message["data"]))
                    except (ValueError, KeyError, TypeError) as exc:
                        log.warning("live hub: unreadable message dropped (%s)", exc)
            except (RedisError, OSError) as exc:
                log.warning("live hub: Redis subscription lost (%s); again in %.1f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(10.0, delay * 2)
            finally:
                await client.aclose()

    async def _poll(self, campaign_id: int, watched: _Watched) -> None:
        """Read the campaign's progress once a second (or when an event says it moved) for all its streams."""
        loop = asyncio.get_running_loop()
        while watched.streams:
            try:
                snapshot = await loop.run_in_executor(None, self.snapshot, campaign_id)
            except Exception as exc:  # noqa: BLE001 - the database may be away for a moment; streams wait
                log.warning("live hub: progress of campaign %s not read (%s)", campaign_id, exc)
                snapshot = None
            if snapshot is not None:
                ended = snapshot["status"] in CAMPAIGN_TERMINAL
                self._deliver(campaign_id, {"event": "progress", "data": snapshot})
                if ended:
                    self._deliver(campaign_id, {"event": "end", "data": snapshot})
                    return
            watched.wake.clear()
            try:
                await asyncio.wait_for(watched.wake.wait(), PROGRESS_EVERY_S)
            except TimeoutError:
                pass


_hubs: dict[int, Hub] = {}


def hub(snapshot: Callable[[int], Any]) -> Hub:
    """This event loop's hub (one per API process)."""
    loop = id(asyncio.get_running_loop())
    if loop not in _hubs:
        _hubs[loop] = Hub(snapshot)
    return _hubs[loop]
