"""Use cases for game data: loading data files."""
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from handbooks import models as m
from handbooks.loader.check import SystemInfo, check_handbook_references, check_schema
from handbooks.loader.parse import parse_file
from handbooks.loader.problems import HandbookDataError, LoadProblem, capped
from handbooks.loader.rows import KeyReserver
from handbooks.loader.write import content_hash, extend_system, write_handbook, write_system

DATA_SUFFIXES = {".yaml", ".yml", ".json"}


@dataclass
class FileResult:
    source: str
    kind: str = ""  # system | handbook
    code: str = ""
    status: str = ""  # created | updated | unchanged | revised | failed
    revision: int | None = None
    problems: list[LoadProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status != "failed"


def system_info(code: str) -> SystemInfo | None:
    system = m.GameSystem.objects.filter(code=code).first()
    if system is None:
        return None
    nation_keys = dict(system.nations.values_list("code", "pk"))
    info = SystemInfo(code=code, nations=set(nation_keys), nation_keys=nation_keys, profile_type_keys={})
    for ptype in system.profile_types.prefetch_related("characteristics"):
        info.profile_types[ptype.code] = (ptype.applies_to, {c.code for c in ptype.characteristics.all()})
        info.profile_type_keys[ptype.code] = ptype.pk
    return info


def handbook_document_check(doc, source: str) -> list[LoadProblem]:
    """All problems with a parsed document, schema first, then references."""
    problems = check_schema(doc, source)
    if problems or doc["kind"] != "handbook":
        return problems
    return check_handbook_references(doc, source, system_info(doc["system"]))


def handbook_document_load(doc, source: str, *, source_kind: str = "file", digest: str | None = None,
                           generated: bool = False, info: SystemInfo | None = None) -> FileResult:
    """Check and write one parsed document in its own transaction; nothing is written on any problem.

    ``generated``: the document was made by our own importer (BattleScribe), whose output the tests hold
    to the schema; only its references are checked here (validating a whole library against the schema
    took most of an import). ``digest``: the content hash when the caller knows it (the importer's hash
    of its source files). ``info``: what the document's game system holds (:func:`system_info`), when the
    caller loads many documents of one system."""
    result = FileResult(source=source)
    if generated and isinstance(doc, dict) and doc.get("kind") == "handbook":
        if info is None or info.code != doc["system"]:
            info = system_info(doc["system"])
        problems = check_handbook_references(doc, source, info)
    else:
        problems = handbook_document_check(doc, source)
    if problems:
        result.status, result.problems = "failed", capped(problems)
        return result
    result.kind, result.code = doc["kind"], doc["code"]
    with transaction.atomic():
        if doc["kind"] == "system":
            m.GameSystem.objects.select_for_update().filter(code=doc["code"]).first()
            _, created, changed = write_system(doc)
            result.status = "created" if created else "updated" if changed else "unchanged"
            return result
        # The system's row is locked until this file's transaction ends: two loads of the same files at
        # the same moment run one after the other, so the second sees the first's revision as unchanged
        # instead of writing a duplicate revision (or crashing on the revision number).
        system = m.GameSystem.objects.select_for_update().get(code=doc["system"])
        digest = digest or content_hash(doc)
        existing = m.Handbook.objects.filter(system=system, code=doc["code"])
        explicit = doc.get("revision")
        if explicit is not None:
            same = existing.filter(revision=explicit).first()
            if same is not None:
                if same.content_hash == digest:
                    result.status, result.revision = "unchanged", same.revision
                    return result
                result.status = "failed"
                result.problems = [LoadProblem(source, "revision", f"revision {explicit} of {doc['code']!r} is already "
                                               "loaded with different content; give the changed file a new revision")]
                return result
        else:
            current = existing.filter(is_current=True).values_list("content_hash", "revision").first()
            if current is not None and current[0] == digest:
                result.status, result.revision = "unchanged", current[1]
                return result
        had_any = existing.exists()
        handbook = write_handbook(doc, system=system, source=source, source_kind=source_kind, digest=digest,
                                  keys=info if generated else None)
        result.status = "revised" if had_any else "created"
        result.revision = handbook.revision
    return result


def handbook_documents_load(documents: list[tuple[dict, str, str | None]], *, system_code: str,
                            source_kind: str, info: SystemInfo | None = None) -> list[FileResult]:
    """Check and write many handbook documents made by our own importer (``generated``, see
    :func:`handbook_document_load`), all of game system ``system_code``, in the caller's transaction: each
    (document, source, digest) gets its result, in order. A caller that must write all or nothing rolls
    back when any failed.

    What one book at a time would ask again and again is asked once: the system is locked once, the books'
    revisions are read with one query, and the books' keys are reserved with one query per table (on
    SQLite; see :class:`~handbooks.loader.rows.KeyReserver`). A document with a revision of its own goes
    through :func:`handbook_document_load`."""
    system = m.GameSystem.objects.select_for_update().filter(code=system_code).first()
    if info is None or info.code != system_code:
        info = system_info(system_code)
    revisions: dict[str, list] = {}  # code -> [latest revision, current revision, its content hash]
    if system is not None:
        rows = m.Handbook.objects.filter(system=system, code__in=[doc.get("code") for doc, _, _ in documents])
        for code, revision, current, digest in rows.values_list("code", "revision", "is_current", "content_hash"):
            known = revisions.setdefault(code, [0, None, None])
            known[0] = max(known[0], revision)
            if current:
                known[1:] = [revision, digest]
    reserver = KeyReserver()
    results = []
    for doc, source, digest in documents:
        if system is None or doc.get("system") != system_code or doc.get("revision") is not None:
            results.append(handbook_document_load(doc, source, source_kind=source_kind, digest=digest,
                                                  generated=True, info=info))
            continue
        result = FileResult(source=source)
        results.append(result)
        problems = check_handbook_references(doc, source, info)
        if problems:
            result.status, result.problems = "failed", capped(problems)
            continue
        result.kind, result.code = doc["kind"], doc["code"]
        digest = digest or content_hash(doc)
        latest, current, current_digest = revisions.get(doc["code"], (0, None, None))
        if current is not None and current_digest == digest:
            result.status, result.revision = "unchanged", current
            continue
        # No savepoint per book: a failing write ends the caller's transaction, which rolls every book back.
        handbook = write_handbook(doc, system=system, source=source, source_kind=source_kind, digest=digest,
                                  keys=info, revision=latest + 1, retire_current=current is not None,
                                  reserver=reserver)
        revisions[doc["code"]] = [handbook.revision, handbook.revision, digest]
        result.status = "revised" if latest else "created"
        result.revision = handbook.revision
    return results


def handbook_system_extend(doc, source: str) -> FileResult:
    """Load a system document that may only add to an existing system (BattleScribe imports): new nations,
    profile types and characteristics are added, what the system has is never changed. A system that does
    not exist yet is created as from a file."""
    if not isinstance(doc, dict) or not m.GameSystem.objects.filter(code=doc.get("code")).exists():
        return handbook_document_load(doc, source, source_kind="battlescribe")
    result = FileResult(source=source)
    problems = check_schema(doc, source)
    if problems:
        result.status, result.problems = "failed", capped(problems)
        return result
    result.kind, result.code = "system", doc["code"]
    with transaction.atomic():
        system = m.GameSystem.objects.select_for_update().get(code=doc["code"])
        result.status = "updated" if extend_system(system, doc) else "unchanged"
    return result


def data_files(paths: list[Path]) -> list[Path]:
    """Expand folders into the data files they hold, in a stable order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in DATA_SUFFIXES)
        else:
            files.append(path)
    return files


def handbooks_load_paths(paths: list[Path]) -> list[FileResult]:
    """Load data files and folders: systems first, then handbooks, each file atomically."""
    parsed: list[tuple[Path, object]] = []
    results: list[FileResult] = []
    for path in data_files(paths):
        try:
            parsed.append((path, parse_file(path)))
        except HandbookDataError as exc:
            results.append(FileResult(source=str(path), status="failed", problems=exc.problems))
    # Systems must exist before the handbooks that refer to them.
    parsed.sort(key=lambda item: 0 if isinstance(item[1], dict) and item[1].get("kind") == "system" else 1)
    for path, doc in parsed:
        results.append(handbook_document_load(doc, str(path)))
    return results
