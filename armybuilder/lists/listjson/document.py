"""Read a list document safely and check it against the published JSON Schema."""
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator

from armybuilder.safejson import MAX_QUOTED_CHARS, RefusedJSON, depth, loads_strict, shorten

FORMAT = "armybuilder-list"
VERSION = 2  # written; version 1 documents are still read (they have no BattleScribe selections)
READABLE_VERSIONS = (1, 2)
MAX_BYTES = 256 * 1024
MAX_DEPTH = 20  # the deepest list of the real BattleScribe library nests 15 levels
MAX_PROBLEMS = 100
MAX_MESSAGE_CHARS = 400
# The published schema (docs/schemas), found from this file: the format is read the same with or without Django.
SCHEMA_PATH = Path(__file__).resolve().parents[3] / "docs" / "schemas" / "list.schema.json"


_QUOTED = re.compile(rf"""(['"])([^'"]{{{MAX_QUOTED_CHARS + 1},}})\1""")


def _short_message(message: str) -> str:
    """Messages quote what they got; a huge value is cut so that an error never echoes a megabyte back."""
    message = _QUOTED.sub(lambda m: m.group(1) + shorten(m.group(2)) + m.group(1), str(message))
    if not message.isprintable():
        message = message.encode("unicode_escape", "backslashreplace").decode("ascii")
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS] + "…"
    return message


@dataclass(frozen=True)
class ListProblem:
    pointer: str  # JSON pointer into the document ("" = the whole document)
    message: str

    def __post_init__(self):
        object.__setattr__(self, "pointer", _short_message(self.pointer))
        object.__setattr__(self, "message", _short_message(self.message))

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"

    def as_dict(self) -> dict:
        return {"pointer": self.pointer, "message": self.message}


class ListDocumentError(Exception):
    def __init__(self, problems: list[ListProblem]):
        if len(problems) > MAX_PROBLEMS:
            rest = len(problems) - MAX_PROBLEMS
            problems = list(problems[:MAX_PROBLEMS]) + [ListProblem("", f"and {rest} more problem(s) not shown")]
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


def bad_text(value) -> ListProblem | None:
    """The first string (key or value) holding a NUL or a lone surrogate, with its pointer."""
    stack = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                stack.append((key, path + (key,)))
                stack.append((child, path + (key,)))
        elif isinstance(item, list):
            stack.extend((child, path + (index,)) for index, child in enumerate(item))
        elif isinstance(item, str):
            if "\x00" in item:
                return ListProblem(_pointer(path), "text may not contain the NUL character (\\u0000)")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return ListProblem(_pointer(path), "text holds a lone surrogate (\\ud800-\\udfff); "
                                                   "it must be valid Unicode")
    return None


def parse_list_json(raw: bytes | str) -> dict:
    """Bytes or text -> document, or ListDocumentError saying why not (size, encoding, syntax, nesting,
    duplicate keys, numbers out of range, NUL or lone surrogates in text)."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise ListDocumentError([ListProblem("", f"the file is {size} bytes; a list may be at most {MAX_BYTES}")])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListDocumentError([ListProblem("", f"not UTF-8 text (byte {exc.start})")]) from exc
    try:
        doc = loads_strict(raw)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ListDocumentError([ListProblem("", f"not valid JSON: {exc.msg} at {where}")]) from exc
    except RecursionError:
        raise ListDocumentError([ListProblem("", f"nested more than {MAX_DEPTH} levels deep")]) from None
    except RefusedJSON as exc:
        raise ListDocumentError([ListProblem("", f"not a usable list: {exc}")]) from exc
    if depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise ListDocumentError([ListProblem("", f"nested more than {MAX_DEPTH} levels deep")])
    problem = bad_text(doc)
    if problem is not None:
        raise ListDocumentError([problem])
    return doc


def validate_list_document(doc) -> list[ListProblem]:
    """Every schema problem, each with its JSON pointer."""
    if not isinstance(doc, dict):
        return [ListProblem("", "a list document must be a JSON object")]
    if doc.get("format") == FORMAT and isinstance(doc.get("version"), int) and doc["version"] not in READABLE_VERSIONS:
        readable = " and ".join(map(str, READABLE_VERSIONS))
        return [ListProblem("/version",
                            f"version {doc['version']} is not supported; this tool reads versions {readable}")]
    problems = []
    for error in sorted(_validator().iter_errors(doc), key=lambda e: _pointer(e.absolute_path)):
        message = error.message
        if error.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown field(s)")
        problems.append(ListProblem(_pointer(error.absolute_path), message))
    return problems
