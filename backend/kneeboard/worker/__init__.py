"""The Celery worker: one agent consuming its own queue."""
