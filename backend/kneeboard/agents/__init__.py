"""Agents: load-generator hosts, one Celery queue each."""
