from django.apps import AppConfig


class HousekeepingConfig(AppConfig):
    name = "armybuilder.housekeeping"
    label = "housekeeping"
