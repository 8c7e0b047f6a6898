from pathlib import Path

from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from armybuilder.interchange.battlescribe import import_library


class Command(ProjectCommand):
    help = ("Import a BattleScribe game system (.gst/.gstz) and its catalogues (.cat/.catz) as Flames of War "
            "handbooks. Give the files or a folder; every file is read before anything is written, and the "
            "whole import is one transaction. Prints a report of everything imported and not imported.")

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, help="files or folders holding one .gst and its .cat files")
        parser.add_argument("--dry-run", action="store_true", help="read and map only; write nothing")
        parser.add_argument("--all", action="store_true", help="list every unmapped construct, not only errors")
        parser.add_argument("--allies", type=Path, default=None,
                            help="the allies table (default: handbooks/battlescribe/allies.yaml)")

    def handle(self, *args, paths, dry_run, all, allies=None, **options):
        missing = [p for p in paths if not p.exists()]
        if missing:
            raise CommandError("no such file or folder: " + ", ".join(str(p) for p in missing), returncode=2)
        report = import_library(paths, dry_run=dry_run, allies=allies)
        for line in report.lines(verbose=all or options["verbosity"] > 1):
            self.stdout.write(line)
        totals = ", ".join(f"{k} {v}" for k, v in sorted(report.totals().items()))
        sev = {s: sum(1 for u in report.unmapped if u.severity == s) for s in ("error", "warning", "info")}
        self.stdout.write(f"total: {totals}")
        self.stdout.write(f"unmapped: {sev['error']} error(s), {sev['warning']} warning(s), {sev['info']} info "
                          "(use --all to list them)")
        if report.read_errors:
            raise CommandError(f"{len(report.read_errors)} file(s) could not be read; nothing was written",
                               returncode=2)
        if not report.ok:
            raise CommandError("some documents could not be loaded; nothing was written", returncode=2)
        if dry_run:
            self.stdout.write("dry run: nothing written")
