from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from armybuilder.interchange.battlescribe.roster import RosterError
from armybuilder.interchange.battlescribe.roster_service import roster_import
from armybuilder.interchange.battlescribe.safe_read import DEFAULT_LIMITS
from armybuilder.interchange.listjson.document import ListDocumentError


class Command(BaseCommand):
    help = ("Import a BattleScribe roster (.ros, .rosz) or New Recruit JSON roster as a new army list. "
            "The game data must have been imported with import_battlescribe first.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--owner", help="username of the list's owner (default: no owner)")
        parser.add_argument("--name", help="name for the list (default: the roster's name)")

    def handle(self, *args, file: Path, owner=None, name=None, **options):
        user = None
        if owner:
            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"no user {owner!r}")
        try:
            size = file.stat().st_size
            if size > DEFAULT_LIMITS.max_xml_bytes:
                raise CommandError(f"{file}: {size} bytes; the limit is {DEFAULT_LIMITS.max_xml_bytes}")
            data = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror or exc}")
        try:
            result = roster_import(data=data, source=file.name, owner=user, name=name)
        except RosterError as exc:
            raise CommandError("the roster cannot be imported:\n" + "\n".join(f"  {p}" for p in exc.problems))
        except ListDocumentError as exc:
            raise CommandError("the roster does not match the imported data:\n"
                               + "\n".join(f"  {p}" for p in exc.problems))
        army_list, report = result.army_list, result.report
        self.stdout.write(f"imported {army_list.name!r} as list {army_list.public_id} "
                          f"({army_list.handbook.name}, revision {army_list.handbook.revision})")
        costs = report.figures.get("costs") or {"points": report.total_points}
        self.stdout.write("costs: " + ", ".join(f"{v:g} {k}" for k, v in costs.items()))
        self.stdout.write(f"check: {'legal' if report.legal else 'not legal'} "
                          f"({len(report.errors)} error(s), {len(report.warnings)} warning(s))")
        for issue in report.errors:
            self.stdout.write(f"  {issue.code} at {issue.pointer}: {issue.message}")
        for warning in result.warnings:
            self.stdout.write(f"warning: {warning}")
