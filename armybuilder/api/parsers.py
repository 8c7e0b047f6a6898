"""JSON request parsers that never crash on hostile bodies.

``StrictJSONParser`` is the API's only parser: UTF-8 only, no NaN/Infinity,
nesting capped (a deep body used to end in RecursionError and a 500), and no
lone surrogate escapes (they cannot be stored). ``ListDocumentParser`` reads a
list document with the list format's own limits (256 KiB, 20 levels).
"""
import json
import re

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from armybuilder.interchange.listjson import MAX_BYTES, parse_list_json
from armybuilder.interchange.listjson.document import MAX_DEPTH, ListDocumentError

from .exceptions import PayloadTooLarge, ProblemsError

MAX_NESTING = 32
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _depth_exceeds(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def _has_lone_surrogate(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _check_surrogates(raw: bytes, data) -> None:
    if _SURROGATE_ESCAPE.search(raw) and _has_lone_surrogate(data):
        raise ParseError("The JSON body contains a lone surrogate escape (\\ud800-\\udfff); "
                         "text must be valid Unicode.")


class StrictJSONParser(JSONParser):
    max_nesting = MAX_NESTING

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(f"The body is not UTF-8 text (bad byte at offset {exc.start}).")
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise ParseError(f"The JSON body is nested more than {self.max_nesting} levels deep.")
        except json.JSONDecodeError as exc:
            raise ParseError(f"Malformed JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.")
        except ValueError as exc:  # NaN / Infinity
            raise ParseError(f"Malformed JSON: {exc}.")
        if _depth_exceeds(data, self.max_nesting):
            raise ParseError(f"The JSON body is nested more than {self.max_nesting} levels deep.")
        _check_surrogates(raw, data)
        return data


class ListDocumentParser(JSONParser):
    """A list document (docs/list-format.md) as the body, read with the format's own limits."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if len(raw) > MAX_BYTES:
            raise PayloadTooLarge(f"The list document is {len(raw)} bytes; a list document may be at most "
                                  f"{MAX_BYTES} bytes.")
        try:
            data = parse_list_json(raw)
        except ListDocumentError as exc:
            raise ProblemsError([p.as_dict() for p in exc.problems])
        except RecursionError:
            raise ProblemsError([{"pointer": "", "message": f"nested more than {MAX_DEPTH} levels deep"}])
        _check_surrogates(raw, data)
        return data
