from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand, bounded_text
from armybuilder.services.printing.render import PAPERS
from armybuilder.services.printing.services import ListDocumentError, roster_pdf_for_document


class Command(ProjectCommand):
    help = ("Print a JSON army list as a PDF roster with unit cards and a rules appendix. "
            "Exit code 0: written; 2: the list file cannot be read or is not a usable list.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the list file (JSON format v1)")
        parser.add_argument("-o", "--output", type=Path, required=True, help="where to write the PDF")
        parser.add_argument("--paper", choices=sorted(PAPERS), default="a4")
        parser.add_argument("--cards", action="store_true", default=True, help="print unit cards (default)")
        parser.add_argument("--no-cards", dest="cards", action="store_false", help="print the roster only")
        parser.add_argument("--player", default="", type=bounded_text(120), help="player name to print")
        parser.add_argument("--event", default="", type=bounded_text(120), help="event name to print")
        # A QR code holds about 2,300 characters at the error correction used; a link is far shorter.
        parser.add_argument("--url", default="", type=bounded_text(1000),
                            help="where the QR code on every page leads (none if empty)")

    def handle(self, *args, file: Path, output: Path, paper: str, cards: bool, player: str, event: str, url: str,
               **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror}", returncode=2) from exc
        try:
            pdf = roster_pdf_for_document(raw=raw, paper=paper, cards=cards, player=player, event=event,
                                          list_url=url)
        except ListDocumentError as exc:
            raise CommandError(f"{file}: not a usable list:\n" + "\n".join(f"  {p}" for p in exc.problems),
                               returncode=2) from exc
        try:
            output.write_bytes(pdf)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write the PDF: {exc.strerror}", returncode=2) from exc
        self.stdout.write(f"Wrote {output} ({len(pdf) // 1024 + 1} KiB).")
