"""The JSON list format, version 1 (docs/list-format.md)."""
from .document import FORMAT, MAX_BYTES, VERSION, ListProblem, parse_list_json, validate_list_document  # noqa: F401
from .resolve import resolve_document, resolve_force  # noqa: F401
