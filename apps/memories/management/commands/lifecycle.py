from django.core.management.base import BaseCommand
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from tqdm import tqdm

from apps.memories import lifecycle


class Command(BaseCommand):
    help = "Run lifecycle jobs now (expire, archive, capacity, consolidate, compact, prune-access, or all)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("job", choices=[*lifecycle.JOBS, "all"])
        parser.add_argument("--now", help="Pretend it is this ISO time (to try retention settings ahead).")

    def handle(self, *args, job: str, now: str | None, **options) -> None:
        moment = parse_datetime(now) if now else timezone.now()
        for name in lifecycle.JOBS if job == "all" else [job]:
            count = lifecycle.JOBS[name](now=moment, progress=lambda items, n=name: tqdm(items, desc=n, unit="item"))
            self.stdout.write(f"{name}: {count}")
