import json
from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from armybuilder.lists.listjson import parse_list_json
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.lists.reporting import report_text
from armybuilder.lists.selectors import list_document_report


class Command(ProjectCommand):
    help = "Check a JSON army list. Exit code 0: legal; 1: not legal; 2: the file cannot be read or parsed."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args, file: Path, format: str, **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror}", returncode=2) from exc
        try:
            force, report = list_document_report(parse_list_json(raw))
        except ListDocumentError as exc:
            if format == "json":
                self.stdout.write(json.dumps({"file": str(file), "readable": False,
                                              "problems": [p.as_dict() for p in exc.problems]}, indent=2))
                raise SystemExit(2) from exc
            raise CommandError(f"{file}: not a usable list:\n" + "\n".join(f"  {p}" for p in exc.problems),
                               returncode=2) from exc
        if format == "json":
            self.stdout.write(json.dumps({"file": str(file), "readable": True, **report.as_dict()}, indent=2,
                                         ensure_ascii=False))
        else:
            self.stdout.write(report_text(force, report))
        if not report.legal:
            raise SystemExit(1)
