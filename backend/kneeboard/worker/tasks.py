"""Thin tasks: hand a campaign to the execution service. Plus the agent's heartbeat, which also
renews the leases of the campaigns it is executing and stores what the spool kept, and its start-up recovery."""

from __future__ import annotations

import logging
import threading

from celery.signals import worker_ready, worker_shutdown

from kneeboard.agents import service as agents
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.lab import impair, orphans
from kneeboard.runs.execution import run_campaign
from kneeboard.runs import spool
from kneeboard.runs.leases import instance_id, renew
from kneeboard.runs.lab_reset import reset_lab_defaults
from kneeboard.runs.recovery import crash_expired, redispatch_stale
from kneeboard.runs.store import store_recovered
from kneeboard.tools.registry import probe_versions
from kneeboard.worker.celery_app import app

_stop = threading.Event()
log = logging.getLogger(__name__)


@app.task(name="kneeboard.run_campaign")
def run_campaign_task(campaign_id: int) -> str:
    """Run one campaign's points on this agent; returns its final status."""
    return run_campaign(campaign_id, get_settings().agent_name)


def enqueue(campaign_id: int, agent: str) -> None:
    """Queue a campaign on its agent's own queue."""
    run_campaign_task.apply_async(args=[campaign_id], queue=agent)


def _heartbeat(name: str) -> None:
    owner = instance_id(name)
    while not _stop.wait(get_settings().heartbeat_s):
        try:
            with session_scope() as session:
                agents.heartbeat(name, session=session)
                renew(owner, session=session)
            if spool.waiting():
                spool.recover(get_settings().workdir, store_recovered)
        except Exception as exc:  # noqa: BLE001 - the next beat tries again; the lease outlives a short blip
            log.warning("heartbeat failed: %s", exc)


@worker_ready.connect
def _register(**_kwargs) -> None:
    """Register, crash only campaigns whose lease expired, put lab settings back to their defaults when nothing runs,
    store what the spool kept, and send again this agent's stale queued ones."""
    name = get_settings().agent_name
    with session_scope() as session:
        agents.register(name, probe_versions(), session=session)
        crash_expired(session=session)
    if removed := impair.clear_orphaned():  # a worker killed mid-point left the lab's link impaired
        log.warning("lab: removed the link's impairment %s left by a process that is gone", removed)
    for done in orphans.put_back_orphaned():  # …or a backend stopped, a server disabled
        log.warning("lab: put back what a process that is gone took out: %s", done)
    with session_scope() as session:
        reset_lab_defaults(session=session)  # e.g. CoreDNS left in a variant's configuration by a worker that died
    spool.recover(get_settings().workdir, store_recovered)
    with session_scope() as session:
        redispatch_stale(enqueue, session=session, agent=name, older_than_s=0)
    threading.Thread(target=_heartbeat, args=(name,), daemon=True).start()


@worker_shutdown.connect
def _stop_heartbeat(**_kwargs) -> None:
    _stop.set()
