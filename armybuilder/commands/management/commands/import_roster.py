from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand, bounded_text, short
from armybuilder.interchange.battlescribe.roster import ROSTER_LIMITS, BattleScribeRosterError
from armybuilder.lists.listjson.document import ListDocumentError
from armybuilder.services.rosters import roster_import


class Command(ProjectCommand):
    help = ("Import a BattleScribe roster (.ros, .rosz) or New Recruit JSON roster as a new army list. "
            "The game data must have been imported with import_battlescribe first.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--owner", type=bounded_text(150), help="username of the list's owner (default: no owner)")
        parser.add_argument("--name", type=bounded_text(120), help="name for the list (default: the roster's name)")

    def handle(self, *args, file: Path, owner=None, name=None, **options):
        user = None
        if owner:
            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"no user {short(owner)!r}", returncode=2)
        try:
            size = file.stat().st_size
            if size > ROSTER_LIMITS.max_xml_bytes:
                raise CommandError(f"{file}: {size} bytes; the limit is {ROSTER_LIMITS.max_xml_bytes}", returncode=2)
            data = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read the file: {exc.strerror or exc}", returncode=2) from exc
        try:
            result = roster_import(data=data, source=file.name, owner=user, name=name)
        except BattleScribeRosterError as exc:
            raise CommandError("the roster cannot be imported:\n" + "\n".join(f"  {p}" for p in exc.problems),
                               returncode=2) from exc
        except ListDocumentError as exc:
            raise CommandError("the roster does not match the imported data:\n"
                               + "\n".join(f"  {p}" for p in exc.problems), returncode=2) from exc
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
