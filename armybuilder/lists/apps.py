from django.apps import AppConfig

# Loading the registry hands the engine the rules module of every system it lists, so every process that
# checks lists has them before the first check (the registry is plain Python: safe to load with the app).
from armybuilder.systems import registry  # noqa: F401


class ListsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "armybuilder.lists"
    label = "lists"
    verbose_name = "Army lists"
