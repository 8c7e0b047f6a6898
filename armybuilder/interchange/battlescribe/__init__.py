"""BattleScribe (BSData) game systems and catalogues: safe reading, an in-memory
index, the Flames of War v4 mapping onto handbook documents, an import report
and a cost evaluator. Pure Python apart from :mod:`.load`, which hands the
documents to the handbooks service.
"""
from .costs import CostResult, SelectionTreeError, UnsupportedModifier, evaluate_costs
from .importer import import_library, map_library, read_library
from .report import ImportReport
from .safe_read import BattleScribeReadError, ReadLimits, read_bytes, read_document

__all__ = [
    "BattleScribeReadError", "CostResult", "ImportReport", "ReadLimits", "SelectionTreeError",
    "UnsupportedModifier", "evaluate_costs", "import_library", "map_library", "read_bytes", "read_document",
    "read_library",
]
