"""Reading handbook data files: parse, check, then write atomically.

parse -> (document, problems) ; check -> problems ; write -> rows.
Nothing is written unless a file has no problems at all.
"""
from .problems import HandbookDataError, LoadProblem  # noqa: F401
