"""Password checks off the request threads: argon2 (64 MiB, four lanes, ~0.1 s a hash here) runs in its own
one-thread pool at the lowest CPU priority (nice 19, inherited by argon2's lane threads), behind a bounded
queue. A sign-in beyond the queue is told to come back (429) before it touches the database, and no other
request waits behind a hash: when the machine is busy, hashing is what slows down."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache

from kneeboard.auth.credentials import verify_password
from kneeboard.errors import TooMany

WORKERS = 1
QUEUE = 16  # sign-ins waiting for the hasher beyond which a new one is refused at once
PER_SOURCE = 2  # sign-ins one source address may have in at once: a flood from one address cannot fill the queue
_state = {"admitted": 0}
_by_source: dict[str, int] = {}


def _lowest_priority() -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)  # on Linux: this thread only
    except (OSError, AttributeError):
        pass  # elsewhere the pool still bounds the work


@lru_cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(WORKERS, thread_name_prefix="password-hash", initializer=_lowest_priority)


@asynccontextmanager
async def slot(source: str | None) -> AsyncIterator[None]:
    """Admit one sign-in (its database read and its hash); TooMany when its source address already has PER_SOURCE
    in, or WORKERS + QUEUE are in from everyone."""
    source = source or "unknown"
    if _by_source.get(source, 0) >= PER_SOURCE:
        raise TooMany("too many sign-ins in progress from this address; try again in a moment", 1)
    if _state["admitted"] >= WORKERS + QUEUE:
        raise TooMany("too many sign-ins in progress; try again in a moment", 2)
    _state["admitted"] += 1  # one event loop: no lock needed
    _by_source[source] = _by_source.get(source, 0) + 1
    try:
        yield
    finally:
        _state["admitted"] -= 1
        _by_source[source] -= 1
        if not _by_source[source]:
            del _by_source[source]


async def verify(password_hash: str | None, password: str) -> bool:
    """`verify_password` in the hashing pool (call it inside `slot`)."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), verify_password, password_hash, password)
