"""Database writes that survive a blip: retried with backoff for up to DB_RETRY_S."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError

from kneeboard.config import get_settings

T = TypeVar("T")
log = logging.getLogger(__name__)


def is_outage(exc: BaseException) -> bool:
    """An error that says the database is away (not that the statement is wrong)."""
    return isinstance(exc, OperationalError) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


def retrying(work: Callable[[], T], what: str, *, budget_s: float | None = None) -> T:
    """Run `work` (which opens its own session) until it succeeds, backing off while the database is away."""
    deadline = time.monotonic() + (get_settings().db_retry_s if budget_s is None else budget_s)
    delay = 0.2
    while True:
        try:
            return work()
        except Exception as exc:  # noqa: BLE001 - only outages are retried, the rest is raised
            if not is_outage(exc) or time.monotonic() + delay > deadline:
                raise
            log.warning("database away while %s (%s); retrying in %.1f s", what, type(exc).__name__, delay)
            time.sleep(delay)
            delay = min(2.0, delay * 2)
