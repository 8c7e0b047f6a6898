"""Turn a data file's bytes into plain Python data, or say exactly why not."""
import json
from pathlib import Path

import yaml

from .problems import HandbookDataError, LoadProblem

MAX_FILE_BYTES = 5 * 1024 * 1024


class _StrictLoader(yaml.SafeLoader):
    """Safe YAML that refuses duplicate keys instead of silently keeping the last."""


def _construct_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"found duplicate key {key!r}", key_node.start_mark
            )
        seen[key] = True
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_text(text: str, source: str, *, as_json: bool = False):
    """Parse YAML (a superset of JSON) or strict JSON; raise HandbookDataError with line and column."""
    try:
        if as_json:
            return json.loads(text)
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except json.JSONDecodeError as exc:
        raise HandbookDataError([LoadProblem(source, f"line {exc.lineno}, column {exc.colno}", f"not valid JSON: {exc.msg}")])
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise HandbookDataError([LoadProblem(source, where, f"not valid YAML: {exc.problem or exc.context}")])
    except (yaml.YAMLError, RecursionError) as exc:
        raise HandbookDataError([LoadProblem(source, "", f"not valid YAML: {exc}")])


def parse_file(path: Path):
    source = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"cannot read the file: {exc.strerror}")])
    if size > MAX_FILE_BYTES:
        raise HandbookDataError([LoadProblem(source, "", f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"not UTF-8 text (byte {exc.start})")])
    except OSError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"cannot read the file: {exc.strerror}")])
    return parse_text(text, source, as_json=path.suffix.lower() == ".json")
