"""One way in for every list file: our JSON list document, a BattleScribe roster (.ros XML or .rosz zip) or a
New Recruit JSON roster, told apart by content (never by file name), and saved through the same services as
the API and the command line (``lists.services.army_list_import``, ``services.rosters.roster_import``).

Every failure is a ListDocumentError whose problems say what is wrong and where: a JSON pointer into a list
document, or the file and line of a roster (the roster reader's own messages).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from armybuilder.interchange.battlescribe.roster import MAX_ROSTER_BYTES
from armybuilder.lists.listjson.document import MAX_BYTES, ListDocumentError, ListProblem, parse_list_json
from armybuilder.lists.services import army_list_import

from .rosters import BattleScribeRosterError, roster_import

LIST = "list"  # our JSON list document
ROSTER = "roster"  # .ros, .rosz or New Recruit JSON
KIND_NAMES = {LIST: "Army Builder list (JSON)", ROSTER: "BattleScribe / New Recruit roster"}
MAX_FILE_BYTES = max(MAX_BYTES, MAX_ROSTER_BYTES)


@dataclass
class FileImport:
    army_list: object
    kind: str
    warnings: list[str] = field(default_factory=list)


def list_file_kind(data: bytes) -> str:
    """LIST or ROSTER, from the content: a zip or XML is a roster; JSON is a roster when it holds a "roster"
    object and no list-format marker, else a list document (whose reader then says what is wrong with it)."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:4] == b"PK\x03\x04" or head[:1] == b"<":
        return ROSTER
    if head[:1] != b"{":
        return LIST  # the list reader explains what it is not
    if b"armybuilder-list" in head[:2048]:
        return LIST
    if len(data) > MAX_BYTES:
        return ROSTER if b'"roster"' in head[:4096] else LIST
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return LIST
    if isinstance(doc, dict) and isinstance(doc.get("roster"), dict) and "format" not in doc:
        return ROSTER
    return LIST


def list_file_import(*, data: bytes | str, source: str = "the file", owner=None, session_key: str = "") -> FileImport:
    """Read any list file and save it as a new list (all or nothing); ListDocumentError says why not."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_FILE_BYTES:
        raise ListDocumentError([ListProblem("", f"{source} is {len(data)} bytes; a list file may be at most "
                                                 f"{MAX_FILE_BYTES}")])
    if not data.strip():
        raise ListDocumentError([ListProblem("", f"{source} is empty")])
    kind = list_file_kind(data)
    if kind == ROSTER:
        try:
            result = roster_import(data=data, source=source, owner=owner, session_key=session_key)
        except BattleScribeRosterError as exc:
            raise ListDocumentError([ListProblem("", p) for p in exc.problems] or
                                    [ListProblem("", str(exc))]) from None
        return FileImport(result.army_list, ROSTER, list(result.warnings))
    doc = parse_list_json(data)
    return FileImport(army_list_import(doc=doc, owner=owner, session_key=session_key), LIST)
