from django.apps import AppConfig


class ServicesConfig(AppConfig):
    """The use cases' app: installed so that its job kinds (jobkinds.py) are registered when Django starts."""

    name = "armybuilder.services"
    label = "services"
