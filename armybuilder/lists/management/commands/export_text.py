import uuid
from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand, bounded_text
from armybuilder.interchange.listjson.document import shorten
from armybuilder.lists.models import ArmyList
from armybuilder.pdf.text import FLAVOURS, army_list_text


class Command(ProjectCommand):
    help = ("Export an army list as text for forums and chat: plain text, Markdown or BBCode, with every "
            "option, size, card and points figure. Writes to standard output unless -o is given.")

    def add_arguments(self, parser):
        parser.add_argument("list_public_id")
        parser.add_argument("--format", dest="flavour", choices=sorted(FLAVOURS), default="text",
                            help="text (default), markdown or bbcode")
        parser.add_argument("--player", type=bounded_text(120), default="", help="player name to print")
        parser.add_argument("--event", type=bounded_text(120), default="", help="event name to print")
        parser.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")

    def handle(self, *args, list_public_id: str, flavour: str, player: str, event: str, output: Path | None,
               **options):
        try:
            public_id = uuid.UUID(list_public_id)
        except ValueError:
            raise CommandError(f"{shorten(list_public_id)!r} is not a list id (a UUID)", returncode=2)
        army_list = ArmyList.objects.select_related("handbook").filter(public_id=public_id).first()
        if army_list is None:
            raise CommandError(f"no list {list_public_id}", returncode=2)
        text = army_list_text(army_list=army_list, flavour=flavour, player=player, event=event)
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc.strerror or exc}", returncode=2)
        self.stderr.write(f"wrote {output} ({len(text.encode('utf-8'))} bytes)")
