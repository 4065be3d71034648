"""Live events of a running campaign over Redis pub/sub (the database stays the source of truth)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import redis

from kneeboard.config import get_settings

PUBLISH_TIMEOUT_S = 2.0  # a Redis that hangs costs a publisher this much, not the tool's output or a point's events


def channel(campaign_id: int) -> str:
    """The pub/sub channel of one campaign."""
    return f"kneeboard:campaign:{campaign_id}"


@lru_cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(get_settings().redis_url, socket_timeout=PUBLISH_TIMEOUT_S, socket_connect_timeout=PUBLISH_TIMEOUT_S)


def publish(campaign_id: int, kind: str, data: dict[str, Any]) -> None:
    """Send one event to whoever watches the campaign; losing it loses nothing stored."""
    try:
        _client().publish(channel(campaign_id), json.dumps({"event": kind, "data": data}, default=str))
    except redis.RedisError:
        pass
