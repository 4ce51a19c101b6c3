import getpass
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from apps.accounts import selectors
from apps.accounts.management.errors import refusal
from apps.accounts.models import Membership
from apps.accounts.services import operator_add, operator_create
from apps.audit.services import Actor


class Command(BaseCommand):
    help = (
        "Make a login an operator (or admin) of a workspace; with --create, create the login too "
        "(the password is asked for twice, or read from stdin with --password-stdin)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--workspace", required=True, help="Workspace slug.")
        parser.add_argument("--user", required=True, help="Username of the login.")
        parser.add_argument(
            "--role",
            default=Membership.Role.OPERATOR,
            choices=Membership.Role.values,
            help="operator (default) or admin (also manages agents, keys and retention).",
        )
        parser.add_argument("--create", action="store_true", help="Create the login (it must not exist yet).")
        parser.add_argument("--email", default="", help="E-mail address of a login made with --create.")
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="Read the new login's password from the first line of stdin instead of asking.",
        )

    def handle(
        self, *args, workspace: str, user: str, role: str, create: bool, email: str, password_stdin: bool, **options
    ) -> None:
        found = selectors.workspace_by_slug(slug=workspace)
        if found is None:
            raise CommandError(
                f"No workspace with slug {workspace!r}. Create it first: "
                f"manage.py create_workspace --name NAME --slug {workspace}"
            )
        actor = Actor.system("manage.py add_operator")
        existing = selectors.user_by_username(username=user)
        try:
            if create:
                if existing is not None:
                    raise CommandError(f"User {user!r} already exists; leave out --create to make them an operator.")
                if not email:
                    raise CommandError("A new login needs an e-mail address: add --email.")
                membership = operator_create(
                    workspace=found,
                    username=user,
                    email=email,
                    role=role,
                    actor=actor,
                    password=self._password(password_stdin),
                )
            elif existing is None:
                raise CommandError(f"No user {user!r}. To create the login as well, add --create --email ADDRESS.")
            else:
                membership = operator_add(workspace=found, user=existing, role=role, actor=actor)
        except ValidationError as error:
            raise refusal(error) from None
        self.stdout.write(f"{membership.user.get_username()} is now {membership.role} of {found.slug}.")

    def _password(self, from_stdin: bool) -> str:
        if from_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = getpass.getpass("Password: ")
            if getpass.getpass("Password (again): ") != password:
                raise CommandError("The passwords do not match; nothing was written.")
        if not password:
            raise CommandError("The password must not be empty.")
        return password
