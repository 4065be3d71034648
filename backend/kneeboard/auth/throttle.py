"""Login throttling, shared by every API process through Redis: failures are counted per (account, source
address) and per source address; past a few, that pair or address is locked for a time that doubles with each
further failure (capped). A locked caller gets 429 with Retry-After and costs no password hash.

There is deliberately no lock on an account as a whole: anyone could then lock the admin out. A flood of one
account from one address locks that address; the real user, elsewhere, still signs in. If Redis is away the
throttle fails open (logged): the bounded hashing pool still keeps the API answering.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from kneeboard.config import get_settings

log = logging.getLogger(__name__)
WINDOW_S = 900  # failures are forgotten 15 minutes after the last one
PAIR_FREE, ADDRESS_FREE = 5, 20  # failures allowed before a lock: per (account, address), per address
LOCK_BASE_S, LOCK_MAX_S = 1.0, 900.0
TRIAL_MS = 10_000  # a trial after a lock holds its turn until it ends (or this long)
_FAIL = """
local n = redis.call('incr', KEYS[1])
redis.call('expire', KEYS[1], ARGV[1])
return n
"""


@dataclass(frozen=True)
class Locked:
    """A refusal: how long to wait, and whether this failure just started the lock (to audit it once)."""

    retry_after_s: int
    new: bool = False
    scope: str = "address"


_clients: dict[int, aioredis.Redis] = {}


def _client() -> aioredis.Redis:
    """This event loop's Redis client (an asyncio client belongs to the loop that made it)."""
    loop = id(asyncio.get_running_loop())
    if loop not in _clients:
        _clients[loop] = aioredis.Redis.from_url(get_settings().redis_url, socket_timeout=0.5, socket_connect_timeout=0.5)
    return _clients[loop]


def _keys(username: str, source: str | None) -> dict[str, str]:
    address = source or "unknown"
    return {"pair": f"kneeboard:login:fail:{username.lower()}|{address}", "address": f"kneeboard:login:fail:@{address}"}


def lock_s(failures: int, free: int) -> float:
    """How long a caller with `failures` is locked: none up to `free`, then doubling from LOCK_BASE_S (capped)."""
    if failures <= free:
        return 0.0
    return min(LOCK_MAX_S, LOCK_BASE_S * 2 ** min(30, failures - free - 1))


async def check(username: str, source: str | None) -> Locked | None:
    """Whether this caller may try a password now; a Locked when not. Once a pair or an address has failed past
    its free tries, a lapsed lock lets one trial through at a time, not every request that was waiting."""
    keys = _keys(username, source)
    try:
        client = _client()
        locks = [await client.pttl(keys[scope] + ":lock") for scope in ("pair", "address")]
        wait_ms = max(locks)
        if wait_ms > 0:
            return Locked(max(1, math.ceil(wait_ms / 1000)))
        failures = [int(await client.get(keys[scope]) or 0) for scope in ("pair", "address")]
        if (failures[0] >= PAIR_FREE or failures[1] >= ADDRESS_FREE) and not await client.set(keys["pair"] + ":trial", 1, px=TRIAL_MS, nx=True):
            return Locked(1)
    except (RedisError, OSError) as exc:
        log.warning("login throttle unavailable (%s); allowing the attempt", exc)
    return None


async def failed(username: str, source: str | None) -> Locked | None:
    """Count a failure; the lock it starts (new=True), if any."""
    keys = _keys(username, source)
    try:
        started = None
        for scope, free in (("pair", PAIR_FREE), ("address", ADDRESS_FREE)):
            failures = await _client().eval(_FAIL, 1, keys[scope], WINDOW_S)
            seconds = lock_s(int(failures), free)
            if seconds and await _client().set(keys[scope] + ":lock", failures, px=int(seconds * 1000), nx=True):
                started = started or Locked(math.ceil(seconds), new=True, scope="account from this address" if scope == "pair" else "address")
        await _client().delete(keys["pair"] + ":trial")
        return started
    except (RedisError, OSError) as exc:
        log.warning("login throttle unavailable (%s); failure not counted", exc)
        return None


async def succeeded(username: str, source: str | None) -> None:
    """A right password clears this pair's failures (the address's stay: it may be guessing other accounts)."""
    keys = _keys(username, source)
    try:
        await _client().delete(keys["pair"], keys["pair"] + ":lock", keys["pair"] + ":trial")
    except (RedisError, OSError) as exc:
        log.warning("login throttle unavailable (%s)", exc)
