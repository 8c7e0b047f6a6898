from django.apps import AppConfig


class CommandsConfig(AppConfig):
    """Every management command of the project (management/commands), each a thin caller of a service."""

    name = "armybuilder.commands"
    label = "commands"
