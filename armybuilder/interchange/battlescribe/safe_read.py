"""Read BattleScribe files (.gst/.cat XML, .gstz/.catz zips) as hostile input.

* XML is parsed with defusedxml: no DTD at all (so no entity expansion and no
  external entities), which BattleScribe files never need.
* Files and zip members have size limits; a zip must hold exactly one XML file,
  and its compression ratio is capped so a small zip cannot expand into a huge
  document. Members are read in bounded chunks, never trusting the header.
* Every failure raises :class:`BattleScribeReadError` naming the file (and the
  line where the parser gives one).
"""
from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

GAME_SYSTEM_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CATALOGUE_NS = "http://www.battlescribe.net/schema/catalogueSchema"
ROOTS = {f"{{{GAME_SYSTEM_NS}}}gameSystem": "gameSystem", f"{{{CATALOGUE_NS}}}catalogue": "catalogue"}

XML_SUFFIXES = {".gst": "gameSystem", ".cat": "catalogue"}
ZIP_SUFFIXES = {".gstz": "gameSystem", ".catz": "catalogue"}


@dataclass(frozen=True)
class ReadLimits:
    max_xml_bytes: int = 32 * 1024 * 1024  # the largest real catalogue is under 2 MB
    max_zip_bytes: int = 8 * 1024 * 1024
    max_zip_members: int = 4
    max_zip_ratio: float = 60.0  # BattleScribe XML compresses ~10-20x
    max_depth: int = 200  # real catalogues nest 23 elements deep; the readers walk the tree recursively


DEFAULT_LIMITS = ReadLimits()
DEFAULT_MAX_DEPTH = DEFAULT_LIMITS.max_depth


class BattleScribeReadError(Exception):
    """A file could not be read safely; nothing from it may be used."""

    def __init__(self, source: str, message: str, line: int | None = None):
        self.source, self.message, self.line = source, message, line
        where = f"{source}, line {line}" if line else source
        super().__init__(f"{where}: {message}")


@dataclass
class RawDocument:
    source: str  # file name for messages
    kind: str  # gameSystem | catalogue
    root: Element
    size: int  # bytes of XML parsed
    digest: str = ""  # SHA-256 of the XML: an unchanged file is seen without mapping it again


def _read_bounded(stream, limit: int, source: str, what: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise BattleScribeReadError(source, f"{what} is larger than the limit of {limit} bytes")
    return data


def _check_depth(root: Element, source: str, limit: int) -> None:
    """Expat reads any depth, but the code that walks the tree recurses: refuse what it cannot walk."""
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        if depth > limit:
            raise BattleScribeReadError(source, f"elements nested more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in element)


def parse_xml_bytes(data: bytes, source: str, *, max_depth: int = DEFAULT_MAX_DEPTH) -> Element:
    """Parse XML with no DTD, entities or external references allowed, and at most ``max_depth`` deep."""
    # defusedxml guards the parsing; the C tree builder makes C elements, several times faster to read.
    parser = DefusedXMLParser(target=TreeBuilder(), forbid_dtd=True, forbid_entities=True, forbid_external=True)
    try:
        parser.feed(data)
        root = parser.close()
        _check_depth(root, source, max_depth)
        return root
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise BattleScribeReadError(source, f"not well-formed XML ({exc})", line) from None
    except DefusedXmlException as exc:
        line = getattr(getattr(parser, "parser", None), "CurrentLineNumber", None)
        raise BattleScribeReadError(
            source, f"forbidden XML construct {type(exc).__name__} (DTDs and entities are not allowed)", line
        ) from None


def _unzip_single(data: bytes, source: str, limits: ReadLimits) -> tuple[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as exc:
        raise BattleScribeReadError(source, f"not a valid zip file ({exc})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.max_zip_members:
            raise BattleScribeReadError(source,
                                        f"zip holds {len(infos)} entries; at most {limits.max_zip_members} allowed")
        files = [i for i in infos if not i.is_dir()]
        if len(files) != 1:
            raise BattleScribeReadError(source, f"zip must hold exactly one XML file, found {len(files)}")
        info = files[0]
        member = f"{source}!{info.filename}"
        if info.file_size > limits.max_xml_bytes:
            raise BattleScribeReadError(member,
                                        f"unpacks to {info.file_size} bytes; the limit is {limits.max_xml_bytes}")
        if info.compress_size and info.file_size / info.compress_size > limits.max_zip_ratio:
            raise BattleScribeReadError(
                member,
                f"compression ratio {info.file_size / info.compress_size:.0f}:1 exceeds {limits.max_zip_ratio:.0f}:1"
            )
        try:
            with archive.open(info) as stream:
                # The header may lie: read at most the limit and fail beyond it.
                content = _read_bounded(stream, limits.max_xml_bytes, member, "unpacked member")
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as exc:
            raise BattleScribeReadError(member, f"cannot unpack ({exc})") from None
        if len(data) and len(content) / max(len(data), 1) > limits.max_zip_ratio * 1.5:
            raise BattleScribeReadError(member, "unpacked size does not match the zip header")
        return member, content


def read_document(path: Path | str, *, limits: ReadLimits = DEFAULT_LIMITS, name: str | None = None) -> RawDocument:
    """Read one .gst/.cat/.gstz/.catz file into an XML tree, or raise BattleScribeReadError."""
    path = Path(path)
    source = name or path.name
    suffix = path.suffix.lower()
    if suffix not in XML_SUFFIXES and suffix not in ZIP_SUFFIXES:
        raise BattleScribeReadError(source, "not a BattleScribe data file (.gst, .cat, .gstz or .catz)")
    try:
        size = path.stat().st_size
        limit = limits.max_zip_bytes if suffix in ZIP_SUFFIXES else limits.max_xml_bytes
        if size > limit:
            raise BattleScribeReadError(source, f"file is {size} bytes; the limit is {limit}")
        with path.open("rb") as stream:
            data = _read_bounded(stream, limit, source, "file")
    except OSError as exc:
        raise BattleScribeReadError(source, f"cannot read file ({exc.strerror or exc})") from None
    return read_bytes(data, source, zipped=suffix in ZIP_SUFFIXES, limits=limits,
                      expected=(XML_SUFFIXES | ZIP_SUFFIXES)[suffix])


def file_digest(path: Path | str, *, limits: ReadLimits = DEFAULT_LIMITS) -> str | None:
    """SHA-256 of a data file's XML (unzipped), without parsing it; None when it cannot be read within limits."""
    path = Path(path)
    suffix = path.suffix.lower()
    limit = limits.max_zip_bytes if suffix in ZIP_SUFFIXES else limits.max_xml_bytes
    try:
        with path.open("rb") as stream:
            data = _read_bounded(stream, limit, path.name, "file")
        if suffix in ZIP_SUFFIXES:
            _, data = _unzip_single(data, path.name, limits)
    except (OSError, BattleScribeReadError):
        return None
    return hashlib.sha256(data).hexdigest()


def read_bytes(data: bytes, source: str, *, zipped: bool = False, limits: ReadLimits = DEFAULT_LIMITS,
               expected: str | None = None) -> RawDocument:
    """Parse file content already in memory (e.g. an upload)."""
    if zipped:
        source, data = _unzip_single(data, source, limits)
    elif len(data) > limits.max_xml_bytes:
        raise BattleScribeReadError(source, f"file is {len(data)} bytes; the limit is {limits.max_xml_bytes}")
    root = parse_xml_bytes(data, source, max_depth=limits.max_depth)
    kind = ROOTS.get(root.tag)
    if kind is None:
        raise BattleScribeReadError(source, f"root element {root.tag!r} is not a BattleScribe gameSystem or catalogue")
    if expected and kind != expected:
        raise BattleScribeReadError(source, f"holds a {kind} but the file name says {expected}")
    for attr in ("id", "name"):
        if not root.get(attr):
            raise BattleScribeReadError(source, f"the {kind} has no {attr!r} attribute")
    return RawDocument(source=source, kind=kind, root=root, size=len(data), digest=hashlib.sha256(data).hexdigest())
