from django.apps import AppConfig


class ListsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "armybuilder.lists"
    label = "lists"
    verbose_name = "Army lists"

    def ready(self):
        # The registry gives the engine the rules module of every system it lists, so every process
        # that checks lists has loaded it before the first check.
        from armybuilder.systems import registry  # noqa: F401
