"""BattleScribe (BSData) game systems and catalogues: safe reading, an in-memory
index, the Flames of War v4 mapping onto handbook documents (and a generic one for
other systems) with the catalogue document the rules engine evaluates, an import
report, and rosters (.ros/.rosz/New Recruit JSON) in and out. Pure Python apart from :mod:`.load`, which hands the
documents to the handbooks service; reading rosters into army lists is ``armybuilder.services.rosters``.
"""
from .costs import CostResult, SelectionTreeError, UnsupportedModifier, evaluate_costs
from .importer import import_library, map_library, read_library
from .report import ImportReport
from .roster import BattleScribeRosterError, read_roster_bytes, read_roster_file
from .roster_map import MappedRoster, roster_to_document
from .roster_write import force_to_ros
from .safe_read import BattleScribeReadError, ReadLimits, read_bytes, read_document

__all__ = [
    "BattleScribeReadError", "CostResult", "ImportReport", "ReadLimits", "SelectionTreeError",
    "UnsupportedModifier", "evaluate_costs", "import_library", "map_library", "read_bytes", "read_document",
    "read_library", "MappedRoster", "BattleScribeRosterError", "force_to_ros", "read_roster_bytes",
    "read_roster_file", "roster_to_document",
]
