"""`/mcp/`: the MCP server over Streamable HTTP, an ASGI app mounted by memoryadmin.asgi.

Stateless (each POST stands alone), so any number of web processes can serve it without sticky
sessions; JSON answers. Every request must carry the same `Authorization: Bearer <key>` as the REST
API, checked here by the API's own key lookup before the SDK sees the request: no key, a bad or a
revoked one is a 401 in the API's error shape. The Host header is checked against ALLOWED_HOSTS like
Django does (this replaces the SDK's own DNS-rebinding check, which only knows localhost)."""

import json
from collections.abc import Sequence
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http.request import split_domain_port, validate_host
from mcp.server.transport_security import TransportSecuritySettings
from rest_framework.exceptions import AuthenticationFailed

from apps.api.authentication import key_from_authorization
from apps.api.exceptions import error_body
from apps.mcp.tools import KEY_SCOPE, server

PATH = "/mcp/"


def _authenticate(header: bytes):
    close_old_connections()
    try:
        return key_from_authorization(header)
    finally:
        close_old_connections()


async def _answer(send, status: int, body: dict, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    content = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


def _sdk_app():
    return server.streamable_http_app(
        streamable_http_path=PATH,
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )


def mcp_application():
    """The ASGI app: lifespan goes to the SDK (its session manager runs from startup to shutdown; a
    manager runs once, so each startup gets a new one), HTTP requests through the key check."""
    current: dict[str, Any] = {"app": None}

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            current["app"] = _sdk_app()
        if scope["type"] != "http":
            return await current["app"](scope, receive, send)
        headers = dict(scope["headers"])
        domain, port = split_domain_port(headers.get(b"host", b"").decode("latin-1"))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return await _answer(send, 400, error_body("bad_request", "This host is not allowed."))
        if not headers.get(b"authorization"):
            return await _answer(
                send,
                401,
                error_body("not_authenticated", "Send your API key as 'Authorization: Bearer <key>'."),
                [(b"www-authenticate", b'Bearer realm="memoryadmin"')],
            )
        try:
            key = await sync_to_async(_authenticate, thread_sensitive=False)(headers[b"authorization"])
        except AuthenticationFailed as failed:
            return await _answer(
                send,
                401,
                error_body("authentication_failed", str(failed.detail)),
                [(b"www-authenticate", b'Bearer realm="memoryadmin"')],
            )
        scope = dict(scope, path=PATH) | {KEY_SCOPE: key}
        if current["app"] is None:
            return await _answer(
                send,
                503,
                error_body(
                    "unavailable", "The MCP server needs an ASGI server that runs the lifespan protocol (uvicorn does)."
                ),
            )
        return await current["app"](scope, receive, send)

    return app
