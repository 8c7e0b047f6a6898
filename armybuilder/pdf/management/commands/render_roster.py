from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from armybuilder.pdf.render import PAPERS
from armybuilder.pdf.services import ListDocumentError, roster_pdf_for_document


class Command(BaseCommand):
    help = ("Print a JSON army list as a PDF roster with unit cards and a rules appendix. "
            "Exit code 0: written; 2: the list file cannot be read or is not a usable list.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the list file (JSON format v1)")
        parser.add_argument("-o", "--output", type=Path, required=True, help="where to write the PDF")
        parser.add_argument("--paper", choices=sorted(PAPERS), default="a4")
        parser.add_argument("--cards", action="store_true", default=True, help="print unit cards (default)")
        parser.add_argument("--no-cards", dest="cards", action="store_false", help="print the roster only")
        parser.add_argument("--player", default="", help="player name to print")
        parser.add_argument("--event", default="", help="event name to print")
        parser.add_argument("--url", default="", help="where the QR code on every page leads (none if empty)")

    def handle(self, *args, file: Path, output: Path, paper: str, cards: bool, player: str, event: str, url: str,
               **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror}", returncode=2)
        try:
            pdf = roster_pdf_for_document(raw=raw, paper=paper, cards=cards, player=player, event=event,
                                          list_url=url)
        except ListDocumentError as exc:
            raise CommandError(f"{file}: not a usable list:\n" + "\n".join(f"  {p}" for p in exc.problems),
                               returncode=2)
        try:
            output.write_bytes(pdf)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write the PDF: {exc.strerror}", returncode=2)
        self.stdout.write(f"Wrote {output} ({len(pdf) // 1024 + 1} KiB).")
