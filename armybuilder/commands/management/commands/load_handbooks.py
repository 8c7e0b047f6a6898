from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from handbooks.services import handbooks_load_paths


class Command(ProjectCommand):
    help = "Load game systems and handbooks from YAML/JSON data files or folders (default: the bundled sample data)."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="*", type=Path, help="files or folders; default: handbooks/data")

    def handle(self, *args, paths, **options):
        paths = paths or [Path(settings.HANDBOOK_DATA_DIR)]
        missing = [p for p in paths if not p.exists()]
        if missing:
            raise CommandError("no such file or folder: " + ", ".join(str(p) for p in missing), returncode=2)
        results = handbooks_load_paths(paths)
        if not results:
            raise CommandError("no data files (.yaml, .yml, .json) found in: " + ", ".join(map(str, paths)),
                               returncode=2)
        failed = 0
        for result in results:
            if result.ok:
                if options["verbosity"] == 0:
                    continue
                rev = f" revision {result.revision}" if result.revision else ""
                self.stdout.write(f"{result.status:9} {result.kind} {result.code}{rev}  ({result.source})")
            else:
                failed += 1
                self.stderr.write(f"failed    {result.source}: {len(result.problems)} problem(s), nothing written")
                for problem in result.problems:
                    self.stderr.write(f"  {problem}")
        if failed:
            raise CommandError(f"{failed} of {len(results)} file(s) could not be loaded", returncode=2)
