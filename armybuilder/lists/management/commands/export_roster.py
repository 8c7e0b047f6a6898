import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from armybuilder.interchange.battlescribe.roster import RosterError
from armybuilder.interchange.battlescribe.roster_service import roster_export
from armybuilder.lists.models import ArmyList


class Command(BaseCommand):
    help = "Export an army list built on imported BattleScribe data as a BattleScribe roster (.ros or .rosz)."

    def add_arguments(self, parser):
        parser.add_argument("list_public_id")
        parser.add_argument("-o", "--output", type=Path, required=True, help="file to write (.ros or .rosz)")

    def handle(self, *args, list_public_id: str, output: Path, **options):
        try:
            public_id = uuid.UUID(list_public_id)
        except ValueError:
            raise CommandError(f"{list_public_id!r} is not a list id (a UUID)")
        army_list = ArmyList.objects.select_related("handbook").filter(public_id=public_id).first()
        if army_list is None:
            raise CommandError(f"no list {list_public_id}")
        try:
            data = roster_export(army_list, zipped=output.suffix.lower() == ".rosz")
        except RosterError as exc:
            raise CommandError("cannot export:\n" + "\n".join(f"  {p}" for p in exc.problems))
        try:
            output.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc.strerror or exc}")
        self.stdout.write(f"wrote {output} ({len(data)} bytes)")
