"""The one place the BattleScribe importer touches the database: the handbooks service."""
from __future__ import annotations

from django.db import transaction

from handbooks.models import Handbook
from handbooks.services import handbook_documents_load, handbook_system_extend, system_info

from .report import CatalogueReport, ImportReport


class _RollBack(Exception):
    pass


def current_source_hashes() -> dict[str, str]:
    """Catalogue id -> the source hash its current imported handbook was made from."""
    out = {}
    for code, extra in Handbook.objects.filter(source="battlescribe", is_current=True).values_list("code", "extra"):
        digest = (extra or {}).get("battlescribe", {}).get("source_hash") if isinstance(extra, dict) else None
        if digest:
            out[code] = digest
    return out


def current_imports() -> list[dict]:
    """What each current imported handbook was made from: its own file's digest, every file's, the mapping, the
    allies table's digest."""
    out = []
    rows = Handbook.objects.filter(source="battlescribe", is_current=True).values_list(
        "code", "name", "revision", "nation__code", "extra")
    for code, name, revision, nation, extra in rows:
        bs = (extra or {}).get("battlescribe", {}) if isinstance(extra, dict) else {}
        files = bs.get("source_files") or []
        own = bs.get("own_file")
        if files and own and bs.get("mapping"):
            out.append({"code": code, "name": name, "revision": revision, "nation": nation, "files": files,
                        "digest": own, "mapping": bs["mapping"], "allies": bs.get("allies")})
    return out


def load_documents(system_doc: dict, documents: list[tuple[CatalogueReport, dict]], report: ImportReport) -> None:
    """Load the system document and every handbook atomically: all or nothing."""
    try:
        with transaction.atomic():
            # Several BattleScribe game systems may map onto one of ours (any Flames of War-like .gst onto
            # fow4): an import adds what its books need to the shared system, and never changes the rest.
            result = handbook_system_extend(system_doc, report.system.source if report.system else "system")
            if report.system:
                report.system.status = result.status
                report.system.load_problems = [str(p) for p in result.problems]
            if not result.ok:
                raise _RollBack
            info = system_info(system_doc["code"])  # the system as extended above, read once for every book
            results = handbook_documents_load(
                [(doc, rep.source, doc.get("extra", {}).get("battlescribe", {}).get("source_hash"))
                 for rep, doc in documents],
                system_code=system_doc["code"], source_kind="battlescribe", info=info)
            for (rep, _), result in zip(documents, results, strict=True):
                rep.status = result.status
                rep.load_problems = [str(p) for p in result.problems]
            if not all(result.ok for result in results):
                raise _RollBack
    except _RollBack:
        for rep in report.all_reports():
            if rep.status in ("created", "revised", "updated", "unchanged"):
                rep.status = "rolled back"
        report.written = False
        return
    report.written = True
