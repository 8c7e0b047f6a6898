"""The one place the BattleScribe importer touches the database: the handbooks service."""
from __future__ import annotations

from django.db import transaction

from handbooks.services import handbook_document_load

from .report import CatalogueReport, ImportReport


class _RollBack(Exception):
    pass


def load_documents(system_doc: dict, documents: list[tuple[CatalogueReport, dict]], report: ImportReport) -> None:
    """Load the system document and every handbook atomically: all or nothing."""
    try:
        with transaction.atomic():
            result = handbook_document_load(system_doc, report.system.source if report.system else "system",
                                            source_kind="battlescribe")
            if report.system:
                report.system.status = result.status
                report.system.load_problems = [str(p) for p in result.problems]
            if not result.ok:
                raise _RollBack
            failed = False
            for rep, doc in documents:
                result = handbook_document_load(doc, rep.source, source_kind="battlescribe")
                rep.status = result.status
                rep.load_problems = [str(p) for p in result.problems]
                failed |= not result.ok
            if failed:
                raise _RollBack
    except _RollBack:
        for rep in report.all_reports():
            if rep.status in ("created", "revised", "updated", "unchanged"):
                rep.status = "rolled back"
        report.written = False
        return
    report.written = True
