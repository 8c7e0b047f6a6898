"""The Celery application: the worker and beat run with ``celery -A armybuilder worker|beat``.

Its settings are the Django settings named CELERY_* (armybuilder/settings.py, section "Jobs").
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

app = Celery("armybuilder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["armybuilder.jobs", "armybuilder.services.housekeeping", "armybuilder.services.events.pack"])
