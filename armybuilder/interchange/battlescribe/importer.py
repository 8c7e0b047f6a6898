"""Import a BattleScribe game system and its catalogues as handbook revisions.

Order of work: read every file safely (any unreadable file stops the import
before anything is written), build the index, map each non-library catalogue
onto a handbook document, then load the extended system document and every
handbook in one transaction through the handbooks service.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from .allies import AlliesTable, AlliesTableError, read_allies_table
from .collector import collector_paused
from .fow import generic_nation, generic_system_code, is_flames_of_war, map_catalogue, system_code_for
from .index import Index
from .load import current_imports, current_source_hashes, load_documents  # the only part that touches the DB
from .nations import nation_for
from .nodes import Catalogue, flag, number
from .parse import parse_document
from .report import CatalogueReport, ImportReport
from .safe_read import (
    DEFAULT_LIMITS,
    XML_SUFFIXES,
    ZIP_SUFFIXES,
    BattleScribeReadError,
    ReadLimits,
    file_digest,
    read_document,
)
from .system import generic_system_document, profile_type_table, system_document

SUFFIXES = set(XML_SUFFIXES) | set(ZIP_SUFFIXES)


@dataclass
class MappedLibrary:
    index: Index | None = None
    system_doc: dict | None = None
    documents: list[tuple[CatalogueReport, dict]] = field(default_factory=list)
    report: ImportReport = field(default_factory=ImportReport)


def data_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
        else:
            files.append(path)
    return files


def _mapping_version() -> str:
    """A digest of the code that turns catalogues into handbooks: a newer importer maps everything again. (The
    allies table a book is made with counts too, whichever it is: see :func:`source_hashes`.)"""
    here = Path(__file__).resolve().parent
    rules = here.parents[1] / "rules" / "battlescribe"
    digest = hashlib.sha256()
    for path in sorted([*here.rglob("*.py"), *rules.rglob("*.py")]):
        digest.update(path.relative_to(here.parents[1]).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


MAPPING_VERSION = _mapping_version()


def _links(root) -> list[str]:
    return [link.get("targetId", "") for child in root if child.tag.endswith("catalogueLinks") for link in child]


def source_digests(system_raw, catalogue_raws) -> dict[str, list[str]]:
    """Catalogue id -> digests of every file its handbook is made from: its own, the catalogues it links
    (transitively) and the game system's."""
    by_id = {raw.root.get("id", ""): raw for raw in catalogue_raws}
    out = {}
    for cid in by_id:
        seen, stack = set(), [cid]
        while stack:
            current = stack.pop()
            if current in seen or current not in by_id:
                continue
            seen.add(current)
            stack.extend(_links(by_id[current].root))
        out[cid] = sorted({system_raw.digest, *(by_id[dep].digest for dep in seen)})
    return out


def source_hashes(system_raw, catalogue_raws, allies: str = "") -> dict[str, str]:
    """Catalogue id -> hash of its file, every catalogue it links (transitively), the game system, the
    mapping code and the allies table (``allies``: its digest): what its handbook document is made from."""
    by_id = {raw.root.get("id", ""): raw for raw in catalogue_raws}
    out = {}
    for cid in by_id:
        seen, stack = set(), [cid]
        while stack:
            current = stack.pop()
            if current in seen or current not in by_id:
                continue
            seen.add(current)
            stack.extend(_links(by_id[current].root))
        digest = hashlib.sha256(MAPPING_VERSION.encode() + system_raw.digest.encode() + allies.encode())
        for dep in sorted(seen):
            digest.update(dep.encode() + by_id[dep].digest.encode())
        out[cid] = digest.hexdigest()
    return out


def read_library(paths: list[Path], *, limits: ReadLimits = DEFAULT_LIMITS, report: ImportReport | None = None,
                 known: dict[str, str] | None = None, allies: str = ""
                 ) -> tuple[Catalogue | None, list[Catalogue], ImportReport]:
    """Read and parse every file; problems go to ``report.read_errors``.

    ``known``: catalogue id -> source hash of its current handbook. A catalogue whose hash is the same is
    not parsed further (it is unchanged), unless a changed catalogue links it. ``allies``: the digest of the
    allies table the books are made with (part of each source hash)."""
    report = report or ImportReport()
    raws = []
    for path in data_files(paths):
        try:
            raws.append(read_document(path, limits=limits))
        except BattleScribeReadError as exc:
            report.read_errors.append(str(exc))
    systems = [r for r in raws if r.kind == "gameSystem"]
    if len(systems) != 1:
        report.read_errors.append(f"exactly one game system (.gst/.gstz) is needed, found {len(systems)}"
                                  + (": " + ", ".join(r.source for r in systems) if systems else ""))
        return None, [], report
    system = parse_document(systems[0])
    cost_ids = {c.id for c in system.cost_types}
    char_ids = {c[0] for p in system.profile_types for c in p.characteristics}
    cat_raws = [r for r in raws if r.kind == "catalogue"]
    hashes = source_hashes(systems[0], cat_raws, allies)
    digests = source_digests(systems[0], cat_raws)
    known = known or {}
    changed = {cid for cid, h in hashes.items() if known.get(cid) != h}
    needed = set(changed)
    by_id = {raw.root.get("id", ""): raw for raw in cat_raws}
    stack = list(changed)
    while stack:  # what a changed catalogue links is parsed too
        for target in _links(by_id[stack.pop()].root):
            if target in by_id and target not in needed:
                needed.add(target)
                stack.append(target)
    catalogues = []
    seen: dict[str, str] = {}
    for raw in cat_raws:
        cid = raw.root.get("id", "")
        if cid not in needed:
            cat = Catalogue(kind="catalogue", id=cid, name=raw.root.get("name", ""),
                            revision=max(1, int(number(raw.root.get("revision"), 1))), source=raw.source,
                            library=flag(raw.root.get("library")), game_system_id=raw.root.get("gameSystemId", ""),
                            source_hash=hashes.get(cid, ""), unchanged=True)
        else:
            cat = parse_document(raw, cost_ids=cost_ids, characteristic_ids=char_ids)
            cat.source_hash = hashes.get(cid, "")
        cat.source_files = digests.get(cid, [])
        cat.digest = raw.digest
        if cat.game_system_id != system.id:
            report.read_errors.append(f"{raw.source}: belongs to game system {cat.game_system_id!r}, "
                                      f"not {system.id!r} ({system.name})")
            continue
        if cat.id in seen:
            report.read_errors.append(f"{raw.source}: catalogue id {cat.id!r} is also used by {seen[cat.id]}")
            continue
        seen[cat.id] = raw.source
        catalogues.append(cat)
    return system, catalogues, report


def map_library(paths: list[Path], *, limits: ReadLimits = DEFAULT_LIMITS, known: dict[str, str] | None = None,
                allies: AlliesTable | Path | None = None) -> MappedLibrary:
    """Read and map, without touching the database (``known``: see :func:`read_library`; ``allies``: the
    allies table or its file, default the project's ``handbooks/battlescribe/allies.yaml``)."""
    with collector_paused():
        return _map_library(paths, limits=limits, known=known, allies=allies)


def allies_table(allies: AlliesTable | Path | None) -> tuple[AlliesTable | None, str]:
    """The allies table to import with (``None``: the project's) and its digest; (None, the reason) when it
    cannot be used."""
    if isinstance(allies, AlliesTable):
        return allies, ""
    try:
        return read_allies_table(allies), ""
    except AlliesTableError as exc:
        return None, str(exc)


def _map_library(paths: list[Path], *, limits: ReadLimits, known: dict[str, str] | None,
                 allies: AlliesTable | Path | None) -> MappedLibrary:
    out = MappedLibrary()
    started = time.perf_counter()
    table, table_problem = allies_table(allies)
    table_digest = table.digest if table is not None else ""  # JSON and a hash: once, not once per catalogue
    system, catalogues, report = read_library(paths, limits=limits, report=out.report, known=known,
                                              allies=table_digest)
    report.parse_seconds = time.perf_counter() - started
    if report.read_errors or system is None:
        return out
    started = time.perf_counter()
    index = Index(system, catalogues)
    out.index = index
    fow = is_flames_of_war(index)
    sys_report = CatalogueReport(source=system.source, catalogue_id=system.id, name=system.name,
                                 revision=system.revision, handbook_code=system_code_for(index))
    if not fow:
        sys_report.info(system.id, "gameSystem", f"{system.name!r} is not Flames of War: imported as the generic "
                        f"system {generic_system_code(system)!r} (root entries become boxes per category)")
    report.system = sys_report
    sys_report.counts["profile types"] = len(index.profile_types)
    sys_report.counts["categories"] = len(system.categories)
    for owner, element, where in system.unknown:
        sys_report.warning(owner, element, f"element <{element}> in {where} is not understood; ignored")
    for force in system.force_entries:
        sys_report.info(force.id, "forceEntry", f"force {force.name!r}: its category limits (e.g. at least one "
                        "formation) are Flames of War rules the rules engine checks itself; not imported as data")
        for cl in force.category_links:
            for c in cl.constraints:
                sys_report.info(c["id"], "constraint", f"{c['type']} {c['value']} of category "
                                f"{index.category_names.get(cl.target_id, cl.target_id)!r} per force: a rules-engine "
                                "rule, not data")
    for _rule in system.shared_rules:
        sys_report.counts["shared rules"] += 1
    for node in system.shared_entries:
        sys_report.info(node.id, "shared selectionEntry", f"{node.name!r} in the game system is imported only "
                        "where a catalogue links it")
    ptypes = profile_type_table(index)
    for cat in catalogues:
        code, _, _, matched = nation_for(cat.name, cat.source)
        if not fow:
            code, matched = generic_nation(cat)[0], True
        rep = CatalogueReport(source=cat.source, catalogue_id=cat.id, name=cat.name, revision=cat.revision,
                              handbook_code=cat.id, nation=code)
        if not matched:
            rep.warning(cat.id, "catalogue", f"nation not recognised from the name {cat.name!r}; using {code!r}")
        report.catalogues.append(rep)
        if cat.library:
            rep.status = "library"
            rep.info(cat.id, "catalogue", "library catalogue: its entries are imported where other catalogues use "
                     "them, not as a handbook of its own")
            continue
        if cat.unchanged:
            rep.status = "unchanged"  # the same files and importer as its current handbook: nothing to do
            continue
        doc = map_catalogue(index, cat, rep, ptypes)
        doc["extra"]["battlescribe"].update({"source_hash": cat.source_hash, "source_files": cat.source_files,
                                             "own_file": cat.digest, "mapping": MAPPING_VERSION,
                                             "allies": table_digest})
        rep.status = "mapped"
        out.documents.append((rep, doc))
    own = [c for c in catalogues if not c.library]
    out.system_doc = system_document(index, own) if fow else generic_system_document(index, own)
    if fow:
        if table is None:
            report.read_errors.append(table_problem)
            return out
        give_allies(table, out.system_doc, out.documents)
    report.map_seconds = time.perf_counter() - started
    return out


def give_allies(table: AlliesTable, system_doc: dict, documents: list) -> None:
    """Each book's allied nations from the table (by its period and nation), said in its report."""
    known = {n["code"] for n in system_doc.get("nations", [])}
    for rep, doc in documents:
        allies = [n for n in table.allies_of(doc.get("period", ""), doc.get("nation", "")) if n in known]
        doc["allied_nations"] = allies
        rep.allies = allies
        rep.allies_source = f"{Path(table.source).name}, {doc.get('period') or 'no period'}"


def _unchanged_library(paths: list[Path], imports: list[dict], limits: ReadLimits, allies: str
                       ) -> ImportReport | None:
    """The report of an import that would change nothing (every file is one the current handbooks were made
    from, by this version of the mapping, with this allies table: ``allies`` its digest), worked out from the
    files' digests alone; None otherwise."""
    imports = [i for i in imports if i["mapping"] == MAPPING_VERSION and i["allies"] == allies]
    if not imports:
        return None  # no handbook made so: every file is to be read (no digest is needed yet)
    files = data_files(paths)
    digests = {}
    for path in files:
        digest = file_digest(path, limits=limits)
        if digest is None:
            return None
        digests[digest] = path
    current = [i for i in imports if set(i["files"]) <= set(digests)]
    own = {i["digest"]: i for i in current}
    needed = {d for i in current for d in i["files"]}
    if not current or set(digests) - needed:
        return None  # a file no current handbook was made from: something is new or changed
    report = ImportReport()
    for digest, path in digests.items():
        info = own.get(digest)
        if info is not None:
            rep = CatalogueReport(source=path.name, catalogue_id=info["code"], name=info["name"],
                                  revision=info["revision"], handbook_code=info["code"], nation=info["nation"])
        else:
            rep = CatalogueReport(source=path.name, catalogue_id="", name=path.stem)
        rep.status = "unchanged" if info is not None else "library"
        report.catalogues.append(rep)
    report.written = True
    return report


def import_library(paths: list[Path], *, dry_run: bool = False, limits: ReadLimits = DEFAULT_LIMITS,
                   allies: AlliesTable | Path | None = None) -> ImportReport:
    """Read, map and (unless ``dry_run``) load. Nothing is written unless every document loads. A catalogue
    whose files, mapping code and allies table (``allies``, default the project's) are those of its current
    handbook is not mapped again; with another allies table every catalogue is, and becomes a new revision."""
    with collector_paused():
        return _import_library(paths, dry_run=dry_run, limits=limits, allies=allies)


def _import_library(paths: list[Path], *, dry_run: bool, limits: ReadLimits,
                    allies: AlliesTable | Path | None) -> ImportReport:
    table, _ = allies_table(allies)  # read once; a table that cannot be used is reported by map_library
    imports = [] if dry_run else current_imports()
    if table is not None and not dry_run:
        quick = _unchanged_library(paths, imports, limits, table.digest)
        if quick is not None:
            return quick
    mapped = map_library(paths, limits=limits, known=None if dry_run else current_source_hashes(),
                         allies=table if table is not None else allies)
    report = mapped.report
    if table is not None and any(i["mapping"] == MAPPING_VERSION and i["allies"] != table.digest for i in imports):
        report.notes.append(f"the allies table ({Path(table.source).name}) is not the one the current handbooks "
                            "were made with: every book is mapped again, and gets its allies from it")
    if report.read_errors or mapped.system_doc is None or dry_run:
        return report

    started = time.perf_counter()
    load_documents(mapped.system_doc, mapped.documents, report)
    report.load_seconds = time.perf_counter() - started
    return report
