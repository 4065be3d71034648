"""The scheduler process: a small Celery app with beat embedded, on its own queue, so a tick never
waits behind a running campaign. It sends campaigns to agents by task name (no agent code here)."""

from __future__ import annotations

import logging

from celery import Celery

from kneeboard.config import get_settings
from kneeboard.extensions import register_all
from kneeboard.models import import_all

import_all()
register_all()  # a launch checks its plan's events against the catalogue
QUEUE = "kneeboard.schedules"
log = logging.getLogger(__name__)

settings = get_settings()
app = Celery("kneeboard-schedules", broker=settings.redis_url)
app.conf.update(
    task_ignore_result=True,
    task_default_queue=QUEUE,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
    beat_schedule={"schedules-tick": {"task": "kneeboard.schedules.tick", "schedule": settings.schedule_tick_s,
                                      "options": {"queue": QUEUE, "expires": settings.schedule_tick_s}}},
)


@app.task(name="kneeboard.schedules.tick")
def tick_task() -> list[int]:
    """Launch the due schedules' campaigns and hand each to its agent; returns their ids."""
    from kneeboard.db import session_scope
    from kneeboard.schedules.service import tick

    with session_scope() as session:
        launched = [(c.id, c.agent) for c in tick(session=session)]
    for campaign_id, agent in launched:
        app.send_task("kneeboard.run_campaign", args=[campaign_id], queue=agent)
        log.info("schedule launched campaign %s on %s", campaign_id, agent)
    return [campaign_id for campaign_id, _ in launched]
