from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class JobsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "armybuilder.jobs"
    label = "jobs"

    def ready(self):
        # Every app's job kinds must be registered before a worker takes its first job.
        autodiscover_modules("jobkinds")
