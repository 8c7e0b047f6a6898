import uuid

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand, bounded_text
from armybuilder.lists.listjson.document import shorten
from armybuilder.lists.models import ArmyList
from armybuilder.services.exports import TEXT_FLAVOURS as FLAVOURS
from armybuilder.services.exports import list_text


class Command(ProjectCommand):
    help = ("Print an army list as text for forums and chat: plain text, Markdown or BBCode, with every option, "
            "size, card and points figure. It goes to standard output (redirect it to keep a file).")

    def add_arguments(self, parser):
        parser.add_argument("list_public_id")
        parser.add_argument("--format", dest="flavour", choices=sorted(FLAVOURS), default="text",
                            help="text (default), markdown or bbcode")
        parser.add_argument("--player", type=bounded_text(120), default="", help="player name to print")
        parser.add_argument("--event", type=bounded_text(120), default="", help="event name to print")

    def handle(self, *args, list_public_id: str, flavour: str, player: str, event: str, **options):
        try:
            public_id = uuid.UUID(list_public_id)
        except ValueError:
            raise CommandError(f"{shorten(list_public_id)!r} is not a list id (a UUID)", returncode=2) from None
        army_list = ArmyList.objects.select_related("handbook").filter(public_id=public_id).first()
        if army_list is None:
            raise CommandError(f"no list {list_public_id}", returncode=2)
        exported = list_text(army_list, flavour=flavour, player=player, event=event)
        self.stdout.write(exported.content.decode("utf-8"), ending="")
