# Job kinds of this app, registered when Django starts (armybuilder.jobs autodiscovers "jobkinds" modules).
from . import imports  # noqa: F401
