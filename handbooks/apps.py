from django.apps import AppConfig


class HandbooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "handbooks"
    verbose_name = "Game data"
