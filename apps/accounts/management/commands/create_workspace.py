from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand

from apps.accounts.management.errors import refusal
from apps.accounts.services import workspace_create
from apps.audit.services import Actor


class Command(BaseCommand):
    help = "Create a workspace (a tenant). The first step of a production install, before add_operator."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--name", required=True, help="Shown in the console, e.g. 'Acme Support'.")
        parser.add_argument("--slug", required=True, help="Short unique id (letters, digits, - and _), e.g. acme.")

    def handle(self, *args, name: str, slug: str, **options) -> None:
        try:
            workspace = workspace_create(name=name, slug=slug, actor=Actor.system("manage.py create_workspace"))
        except ValidationError as error:
            raise refusal(error) from None
        self.stdout.write(
            f"Workspace {workspace.name!r} created with slug {workspace.slug}. Next: "
            f"manage.py add_operator --workspace {workspace.slug} --user <username> --role admin"
        )
