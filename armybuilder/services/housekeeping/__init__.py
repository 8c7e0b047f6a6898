"""Periodic clean-up: stale anonymous lists, expired sessions, old finished jobs (Celery beat, or a command)."""
