from django.core.management.base import BaseCommand, CommandError

from apps.accounts.models import ApiKey
from apps.accounts.services import apikey_revoke


class Command(BaseCommand):
    help = "Revoke an API key by its prefix (the part after 'mk_')."

    def add_arguments(self, parser) -> None:
        parser.add_argument("prefix")

    def handle(self, *args, prefix: str, **options) -> None:
        key = ApiKey.objects.select_related("agent").filter(prefix=prefix.removeprefix("mk_")).first()
        if key is None:
            raise CommandError(f"No API key with prefix {prefix!r}.")
        apikey_revoke(key=key)
        self.stdout.write(f"Revoked key {key.prefix} of agent {key.agent.name!r}.")
