"""Scheduled campaigns: a plan launched on a five-field cron by Celery beat."""
