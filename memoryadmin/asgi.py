"""ASGI entry point: Django, plus the MCP server's Streamable HTTP transport at /mcp/ (apps.mcp.http).
Serve with an ASGI server, e.g. `uvicorn memoryadmin.asgi:application` (README, "MCP")."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryadmin.settings")
django_application = get_asgi_application()

from apps.mcp.http import mcp_application  # noqa: E402  (needs the apps loaded)

mcp = mcp_application()


async def application(scope, receive, send):
    """/mcp and /mcp/ to the MCP server; lifespan to it too (Django has none); the rest to Django."""
    if scope["type"] == "lifespan" or (scope["type"] == "http" and scope["path"] in ("/mcp", "/mcp/")):
        return await mcp(scope, receive, send)
    return await django_application(scope, receive, send)
