from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.models import Agent, Workspace
from apps.accounts.services import agent_create, apikey_issue


class Command(BaseCommand):
    help = "Create an agent (or reuse it by name) and print a new API key for it, once."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--workspace", required=True, help="Workspace slug.")
        parser.add_argument("--name", required=True, help="Agent name, unique in the workspace.")
        parser.add_argument("--scopes", default="read,write", help="Comma-separated: read, write (default both).")

    def handle(self, *args, workspace: str, name: str, scopes: str, **options) -> None:
        found = Workspace.objects.filter(slug=workspace).first()
        if found is None:
            raise CommandError(f"No workspace with slug {workspace!r}.")
        agent = Agent.objects.filter(workspace=found, name=name).first()
        try:
            agent = agent or agent_create(workspace=found, name=name)
            key, raw_key = apikey_issue(agent=agent, scopes=[s.strip() for s in scopes.split(",") if s.strip()])
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        self.stdout.write(
            f"Agent {agent.name!r} in {found.slug}: key prefix {key.prefix}, scopes {','.join(key.scopes)}"
        )
        self.stdout.write("API key (shown once; only its hash is stored):")
        self.stdout.write(raw_key)
