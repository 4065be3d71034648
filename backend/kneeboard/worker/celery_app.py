"""The Celery application on the Redis broker. The database, not Celery, holds run state."""

from __future__ import annotations

from celery import Celery

from kneeboard.config import get_settings
from kneeboard.extensions import register_all
from kneeboard.models import import_all

import_all()
register_all()

settings = get_settings()
app = Celery("kneeboard", broker=settings.redis_url, include=["kneeboard.worker.tasks"])
app.conf.update(
    task_ignore_result=True,
    task_acks_late=True,  # a message lost with a killed worker comes back; the lease stops a second run
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    worker_concurrency=1,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)
