# Job kinds of the services (armybuilder.jobs autodiscovers "jobkinds" modules): the BattleScribe library import.
from . import library_import  # noqa: F401
