"""Thin tasks: load the campaign, hand it to the execution service. Plus agent registration."""

from __future__ import annotations

import threading

from celery.signals import worker_ready, worker_shutdown

from kneeboard.agents import service as agents
from kneeboard.campaigns.execution import run_campaign
from kneeboard.campaigns.recovery import mark_crashed
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.tools.registry import probe_versions
from kneeboard.worker.celery_app import app

_stop = threading.Event()


@app.task(name="kneeboard.run_campaign")
def run_campaign_task(campaign_id: int) -> str:
    """Run one campaign's points on this agent; returns its final status."""
    return run_campaign(campaign_id, get_settings().agent_name)


def enqueue(campaign_id: int, agent: str) -> None:
    """Queue a campaign on its agent's own queue."""
    run_campaign_task.apply_async(args=[campaign_id], queue=agent)


def _heartbeat(name: str) -> None:
    while not _stop.wait(get_settings().heartbeat_s):
        try:
            with session_scope() as session:
                agents.heartbeat(name, session=session)
        except Exception:  # noqa: BLE001 - the next beat tries again
            pass


@worker_ready.connect
def _register(**_kwargs) -> None:
    name = get_settings().agent_name
    with session_scope() as session:
        agents.register(name, probe_versions(), session=session)
        mark_crashed(name, session=session)
    threading.Thread(target=_heartbeat, args=(name,), daemon=True).start()


@worker_shutdown.connect
def _stop_heartbeat(**_kwargs) -> None:
    _stop.set()
