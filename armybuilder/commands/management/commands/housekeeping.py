from django.conf import settings
from django.core.management.base import CommandError

from armybuilder.commands import ProjectCommand
from armybuilder.services.housekeeping.services import housekeeping_run

MAX_DAYS = 36_500  # a century: further back than any date the database holds


class Command(ProjectCommand):
    help = ("Remove anonymous lists untouched for N days, expired sessions and old finished jobs. Celery beat runs "
            "this every hour; run it by hand or from cron where there is no beat.")

    def add_arguments(self, parser):
        parser.add_argument("--list-days", type=int, default=settings.HOUSEKEEPING_ANONYMOUS_LIST_DAYS,
                            help="anonymous lists untouched for this many days are removed (default %(default)s)")
        parser.add_argument("--job-days", type=int, default=settings.HOUSEKEEPING_JOB_DAYS,
                            help="finished jobs older than this many days are removed (default %(default)s)")

    def handle(self, *args, list_days, job_days, **options):
        for flag, days in (("--list-days", list_days), ("--job-days", job_days)):
            if not 1 <= days <= MAX_DAYS:
                raise CommandError(f"{flag} is a number of days from 1 to {MAX_DAYS}, not {days}", returncode=2)
        counts = housekeeping_run(anonymous_list_days=list_days, job_days=job_days)
        self.stdout.write(", ".join(f"{name.replace('_', ' ')}: {n} removed" for name, n in counts.items()))
