"""JSON request parsers that never crash on hostile bodies.

``StrictJSONParser`` is the API's only parser: UTF-8 only, no NaN/Infinity, no
duplicate keys, no numbers too long to be real (Python refuses to convert more
than 4,300 digits, which used to be a 500), nesting capped (a deep body used to
end in RecursionError and a 500), and no NUL or lone surrogate in text (they
cannot be stored). ``ListDocumentParser`` reads a list document with the list
format's own limits (256 KiB, 20 levels).
"""
import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from armybuilder.lists.listjson import MAX_BYTES, parse_list_json
from armybuilder.lists.listjson.document import MAX_DEPTH, ListDocumentError, RefusedJSON, bad_text, depth, loads_strict

from .exceptions import PayloadTooLarge, ProblemsError

MAX_NESTING = 32


def _text_checked(data):
    problem = bad_text(data)
    if problem is not None:
        raise ProblemsError([problem.as_dict()])
    return data


class StrictJSONParser(JSONParser):
    max_nesting = MAX_NESTING

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(f"The body is not UTF-8 text (bad byte at offset {exc.start}).") from exc
        try:
            data = loads_strict(text)
        except RefusedJSON as exc:
            raise ParseError(f"Malformed JSON: {exc}.") from exc
        except RecursionError:
            raise ParseError(f"The JSON body is nested more than {self.max_nesting} levels deep.") from None
        except json.JSONDecodeError as exc:
            raise ParseError(f"Malformed JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from exc
        if depth(data, self.max_nesting) > self.max_nesting:
            raise ParseError(f"The JSON body is nested more than {self.max_nesting} levels deep.")
        return _text_checked(data)


class ListDocumentParser(JSONParser):
    """A list document (docs/list-format.md) as the body, read with the format's own limits."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(MAX_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BYTES:
            raise PayloadTooLarge(f"The list document is more than {MAX_BYTES} bytes; a list document may be at "
                                  f"most {MAX_BYTES} bytes.")
        try:
            data = parse_list_json(raw)
        except ListDocumentError as exc:
            raise ProblemsError([p.as_dict() for p in exc.problems]) from exc
        except RecursionError:
            raise ProblemsError([{"pointer": "", "message": f"nested more than {MAX_DEPTH} levels deep"}]) from None
        return data
