"""Turn a data file's bytes into plain Python data, or say exactly why not."""
import json
import math
from pathlib import Path

import yaml

from armybuilder.safejson import RefusedJSON, loads_strict

from .problems import HandbookDataError, LoadProblem

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 50_000  # the largest sample book has about 3,000; BattleScribe libraries do not come as YAML


class _StrictLoader(yaml.SafeLoader):
    """Safe YAML that refuses duplicate keys instead of silently keeping the last, and bounds aliases.

    An alias (``*name``) repeats an anchored node, and aliases of aliases grow exponentially: an
    800-byte "billion laughs" file used 5.6 GB once its data was walked. Our own files use a few
    aliases (shared characteristic lists), so instead of refusing them the size of the data *with
    every alias expanded* is computed on the composed node graph (cheaply: each node once) and capped,
    like the nesting depth, before anything is built. A recursive alias is refused.
    """

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise yaml.composer.ComposerError(None, None, f"more than {MAX_NODES} values in one file",
                                              self.peek_event().start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH and not self.check_event(yaml.events.AliasEvent):
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_data(self):
        node = self.get_single_node()
        if node is None:
            return None
        _check_expanded_size(node)
        return self.construct_document(node)


def _check_expanded_size(root) -> None:
    """How many values the document holds with aliases expanded; ComposerError past MAX_NODES."""
    sizes: dict[int, int] = {}
    in_progress: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        children = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if not children_done:
            if key in in_progress:
                raise yaml.composer.ComposerError(None, None, "an alias refers to a value that contains it",
                                                  node.start_mark)
            in_progress.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        in_progress.discard(key)
        total = 1 + sum(sizes.get(id(child), 0) for child in children)
        if total > MAX_NODES:
            raise yaml.composer.ComposerError(None, None, f"holds more than {MAX_NODES} values once its aliases "
                                                          "are expanded", node.start_mark)
        sizes[key] = total


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


def _construct_float(loader, node):
    # YAML's .nan and .inf (and 1e999) are no JSON numbers: refused here, with their place, rather than stored
    # as something else or refused by the database.
    value = loader.construct_yaml_float(node)
    if not math.isfinite(value):
        raise yaml.constructor.ConstructorError(None, None, f"{node.value!r} is not a finite number",
                                                node.start_mark)
    return value


_StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)


def _count_nodes(value, source: str) -> None:
    """The JSON path has no aliases, but the same caps on size and depth as YAML."""
    stack, nodes = [(value, 1)], 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise HandbookDataError([LoadProblem(source, "", f"more than {MAX_NODES} values in one file")])
        if depth > MAX_DEPTH:
            raise HandbookDataError([LoadProblem(source, "", f"nested more than {MAX_DEPTH} levels deep")])
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def parse_text(text: str, source: str, *, as_json: bool = False):
    """Parse YAML (a superset of JSON) or strict JSON; raise HandbookDataError with line and column."""
    try:
        if as_json:
            data = loads_strict(text)
            _count_nodes(data, source)
            return data
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except RefusedJSON as exc:
        raise HandbookDataError([LoadProblem(source, "", f"not valid JSON: {exc}")]) from exc
    except json.JSONDecodeError as exc:
        raise HandbookDataError([LoadProblem(source, f"line {exc.lineno}, column {exc.colno}",
                                             f"not valid JSON: {exc.msg}")]) from exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise HandbookDataError([LoadProblem(source, where, f"not valid YAML: {exc.problem or exc.context}")]) from exc
    except RecursionError:
        raise HandbookDataError([LoadProblem(source, "", f"nested more than {MAX_DEPTH} levels deep")]) from None
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: an integer of more than 4,300 digits
        raise HandbookDataError([LoadProblem(source, "", f"not valid YAML: {exc}")]) from exc


def parse_file(path: Path):
    source = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"cannot read the file: {exc.strerror}")]) from exc
    if size > MAX_FILE_BYTES:
        raise HandbookDataError([LoadProblem(source, "", f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"not UTF-8 text (byte {exc.start})")]) from exc
    except OSError as exc:
        raise HandbookDataError([LoadProblem(source, "", f"cannot read the file: {exc.strerror}")]) from exc
    return parse_text(text, source, as_json=path.suffix.lower() == ".json")
