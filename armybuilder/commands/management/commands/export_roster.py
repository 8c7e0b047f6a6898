import uuid
from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from armybuilder.interchange.battlescribe.roster import BattleScribeRosterError
from armybuilder.lists.listjson.document import shorten
from armybuilder.lists.models import ArmyList
from armybuilder.services.exports import list_roster


class Command(ProjectCommand):
    help = "Export an army list built on imported BattleScribe data as a BattleScribe roster (.ros or .rosz)."

    def add_arguments(self, parser):
        parser.add_argument("list_public_id")
        parser.add_argument("-o", "--output", type=Path, required=True, help="file to write (.ros or .rosz)")

    def handle(self, *args, list_public_id: str, output: Path, **options):
        try:
            public_id = uuid.UUID(list_public_id)
        except ValueError:
            raise CommandError(f"{shorten(list_public_id)!r} is not a list id (a UUID)", returncode=2) from None
        army_list = ArmyList.objects.select_related("handbook").filter(public_id=public_id).first()
        if army_list is None:
            raise CommandError(f"no list {list_public_id}", returncode=2)
        try:
            data = list_roster(army_list, zipped=output.suffix.lower() == ".rosz").content
        except BattleScribeRosterError as exc:
            raise CommandError("cannot export:\n" + "\n".join(f"  {p}" for p in exc.problems), returncode=2) from exc
        try:
            output.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc.strerror or exc}", returncode=2) from exc
        self.stdout.write(f"wrote {output} ({len(data)} bytes)")
