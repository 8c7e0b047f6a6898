from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from armybuilder.housekeeping.services import housekeeping_run


class Command(BaseCommand):
    help = ("Remove anonymous lists untouched for N days, expired sessions and old finished jobs. Celery beat runs "
            "this every hour; run it by hand or from cron where there is no beat.")

    def add_arguments(self, parser):
        parser.add_argument("--list-days", type=int, default=settings.HOUSEKEEPING_ANONYMOUS_LIST_DAYS,
                            help="anonymous lists untouched for this many days are removed (default %(default)s)")
        parser.add_argument("--job-days", type=int, default=settings.HOUSEKEEPING_JOB_DAYS,
                            help="finished jobs older than this many days are removed (default %(default)s)")

    def handle(self, *args, list_days, job_days, **options):
        if list_days < 1 or job_days < 1:
            raise CommandError("--list-days and --job-days are at least 1", returncode=2)
        counts = housekeeping_run(anonymous_list_days=list_days, job_days=job_days)
        self.stdout.write(", ".join(f"{name.replace('_', ' ')}: {n} removed" for name, n in counts.items()))
