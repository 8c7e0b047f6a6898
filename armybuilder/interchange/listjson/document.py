"""Read a list document safely and check it against the published JSON Schema."""
import json
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from jsonschema import Draft202012Validator

FORMAT = "armybuilder-list"
VERSION = 2  # written; version 1 documents are still read (they have no BattleScribe selections)
READABLE_VERSIONS = (1, 2)
MAX_BYTES = 256 * 1024
MAX_DEPTH = 20  # the deepest list of the real BattleScribe library nests 15 levels
SCHEMA_PATH = settings.BASE_DIR / "docs" / "schemas" / "list.schema.json"


@dataclass(frozen=True)
class ListProblem:
    pointer: str  # JSON pointer into the document ("" = the whole document)
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"

    def as_dict(self) -> dict:
        return {"pointer": self.pointer, "message": self.message}


class ListDocumentError(Exception):
    def __init__(self, problems: list[ListProblem]):
        self.problems = problems
        super().__init__("; ".join(map(str, problems)))


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def _pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _depth(value, limit: int) -> int:
    """Nesting depth, stopping early once past the limit."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def parse_list_json(raw: bytes | str) -> dict:
    """Bytes or text -> document, or ListDocumentError saying why not (size, encoding, syntax, nesting)."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise ListDocumentError([ListProblem("", f"the file is {size} bytes; a list may be at most {MAX_BYTES}")])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListDocumentError([ListProblem("", f"not UTF-8 text (byte {exc.start})")])
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ListDocumentError([ListProblem("", f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")])
    except RecursionError:
        raise ListDocumentError([ListProblem("", f"nested more than {MAX_DEPTH} levels deep")])
    if _depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise ListDocumentError([ListProblem("", f"nested more than {MAX_DEPTH} levels deep")])
    return doc


def validate_list_document(doc) -> list[ListProblem]:
    """Every schema problem, each with its JSON pointer."""
    if not isinstance(doc, dict):
        return [ListProblem("", "a list document must be a JSON object")]
    if doc.get("format") == FORMAT and isinstance(doc.get("version"), int) and doc["version"] not in READABLE_VERSIONS:
        readable = " and ".join(map(str, READABLE_VERSIONS))
        return [ListProblem("/version", f"version {doc['version']} is not supported; this tool reads versions {readable}")]
    problems = []
    for error in sorted(_validator().iter_errors(doc), key=lambda e: _pointer(e.absolute_path)):
        message = error.message
        if error.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown field(s)")
        problems.append(ListProblem(_pointer(error.absolute_path), message))
    return problems
