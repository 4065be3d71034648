"""Live events of a running campaign over Redis pub/sub (the database stays the source of truth)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from functools import lru_cache
from typing import Any

import redis
import redis.asyncio as aioredis

from kneeboard.config import get_settings


def channel(campaign_id: int) -> str:
    """The pub/sub channel of one campaign."""
    return f"kneeboard:campaign:{campaign_id}"


@lru_cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(get_settings().redis_url)


def publish(campaign_id: int, kind: str, data: dict[str, Any]) -> None:
    """Send one event to whoever watches the campaign; losing it loses nothing stored."""
    try:
        _client().publish(channel(campaign_id), json.dumps({"event": kind, "data": data}, default=str))
    except redis.RedisError:
        pass


async def subscribe(campaign_id: int) -> AsyncIterator[dict[str, Any] | None]:
    """Events of a campaign as they come; None about once a second when there are none."""
    client = aioredis.Redis.from_url(get_settings().redis_url)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel(campaign_id))
    try:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            yield json.loads(message["data"]) if message else None
    finally:
        await pubsub.unsubscribe()
        await pubsub.aclose()
        await client.aclose()
