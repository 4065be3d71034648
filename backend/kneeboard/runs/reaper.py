"""The reaper: a thread in the API process that crashes campaigns whose lease expired and sends
again queued campaigns a broker restart lost. No worker restart is needed for either."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from kneeboard import live
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.runs.recovery import crash_expired, redispatch_stale
from kneeboard.states import CampaignStatus

log = logging.getLogger(__name__)


def reap_once(dispatch) -> tuple[list[int], list[int]]:
    """One pass: (campaigns crashed, campaigns sent again)."""
    with session_scope() as session:
        crashed = crash_expired(session=session)
    for campaign_id in crashed:
        log.warning("campaign %s crashed: its lease expired", campaign_id)
        live.publish(campaign_id, "status", {"status": CampaignStatus.CRASHED})
    with session_scope() as session:
        sent = redispatch_stale(dispatch, session=session)
    return crashed, sent


def _loop(stop: threading.Event, dispatch) -> None:
    while not stop.wait(get_settings().reap_every_s):
        try:
            reap_once(dispatch)
        except Exception as exc:  # noqa: BLE001 - the database may be away; the next pass tries again
            log.warning("reaper pass failed: %s", exc)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Run the reaper beside the API for as long as the API runs."""
    stop = threading.Event()
    thread = threading.Thread(target=_loop, args=(stop, app.state.dispatch), name="reaper", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
