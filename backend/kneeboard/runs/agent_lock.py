"""One load at a time per agent name: a campaign takes its agent's exclusive reservation (the same Redis key a
fanned point reserves its agents by, fanout/reserve.py) before it claims its lease, and holds it, renewed, for
its whole run. A second worker process under the same name waits meanwhile; its campaign stays queued (the
report says which agent it waits for and how many campaigns are ahead). A killed holder frees the agent after
the reservation's TTL."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import redis

from kneeboard.config import get_settings
from kneeboard.fanout.reserve import Reservation, ReserveError

log = logging.getLogger(__name__)
WAIT_S = 5.0  # how long one try waits before the campaign is looked at again (cancelled meanwhile?)


@contextmanager
def agent_slot(agent: str, campaign_id: int, still_queued: Callable[[], bool]) -> Iterator[bool]:
    """Hold `agent` for this campaign while the block runs; yields False (holding nothing) when the campaign
    stopped being queued while it waited (cancelled, or run by another process)."""
    broker = redis.Redis.from_url(get_settings().redis_url)
    reservation = Reservation(broker, [agent], f"campaign {campaign_id}")
    try:
        while True:
            try:
                reservation.acquire(WAIT_S)
                break
            except ReserveError as exc:
                if not still_queued():
                    yield False
                    return
                log.info("campaign %s waits: %s", campaign_id, exc)
        try:
            yield True
        finally:
            reservation.release()
    finally:
        broker.close()
