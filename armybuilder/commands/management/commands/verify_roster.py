from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from armybuilder.services.printing.services import BadCode, ListDocumentError, roster_verify


class Command(ProjectCommand):
    help = ("Check a printed roster's verification code against a JSON list file. Exit code 0: the code matches; "
            "1: it does not; 2: the file cannot be read or is not a list, or the code is not a verification code.")

    def add_arguments(self, parser):
        parser.add_argument("code", help="the code printed on the roster, e.g. 3F2A-91C0-7B4E")
        parser.add_argument("file", type=Path, help="the list file (JSON format v1)")

    def handle(self, *args, code: str, file: Path, **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror}", returncode=2) from exc
        if not raw.strip():
            raise CommandError(f"{file}: the file is empty", returncode=2)
        try:
            result = roster_verify(code=code, raw=raw)
        except BadCode as exc:
            raise CommandError(str(exc), returncode=2) from exc
        except ListDocumentError as exc:
            raise CommandError(f"{file}: not a usable list:\n" + "\n".join(f"  {p}" for p in exc.problems),
                               returncode=2) from exc
        self.stdout.write(result.message)
        if not result.matches:
            raise SystemExit(1)
