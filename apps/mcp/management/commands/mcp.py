"""`manage.py mcp`: the MCP server over stdio, for a desktop client that starts it as a subprocess.

The agent's API key comes from `--api-key` or MEMORYADMIN_API_KEY (prefer the variable: a flag shows
in the process list). stdout carries the protocol only; messages go to stderr."""

import os

import anyio
from django.core.management.base import BaseCommand, CommandError
from rest_framework.exceptions import AuthenticationFailed

from apps.api.authentication import key_from_raw
from apps.mcp.tools import server, stdio_key

ENV = "MEMORYADMIN_API_KEY"


class Command(BaseCommand):
    help = "Serve the MCP tools over stdio as the agent of an API key (--api-key or $MEMORYADMIN_API_KEY)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--api-key", default="", help=f"The agent's API key (default: ${ENV}).")

    def handle(self, *args, api_key: str, **options) -> None:
        raw_key = (api_key or os.environ.get(ENV, "")).strip()
        if not raw_key:
            raise CommandError(
                f"No API key: set {ENV} (or pass --api-key). "
                "Make one with: manage.py create_agent --workspace W --name N"
            )
        try:
            key = key_from_raw(raw_key)
        except AuthenticationFailed as failed:
            raise CommandError(str(failed.detail)) from None
        self.stderr.write(
            f"memoryadmin MCP server on stdio: agent {key.agent.name!r} of workspace "
            f"{key.workspace.slug!r}, scopes {', '.join(key.scopes)}"
        )
        stdio_key.set(raw_key)
        anyio.run(server.run_stdio_async)
