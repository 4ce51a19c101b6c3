import contextlib
import logging
import re
import uuid

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from apps.privacy.identifiers import identifier_refusal
from memoryadmin import metrics, tracing
from memoryadmin.request_types import AppRequest

logger = logging.getLogger(__name__)

_CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class TracingMiddleware:
    """First in MIDDLEWARE: an HTTP server span around everything below (memoryadmin.tracing).
    Left out of the chain altogether while tracing is not configured."""

    def __init__(self, get_response) -> None:
        if not tracing.configured():
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not tracing.start():
            return self.get_response(request)
        return tracing.serve(request, self.get_response)


class RequestIdMiddleware:
    """Give every request an id (the client's X-Request-ID when sane) for logs and the audit trail.
    A client id holding personal data is refused (422): ids are opaque handles. While tracing is
    on, the id made here is the trace id (the span carries the id either way, as `request.id`)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: AppRequest) -> HttpResponse:
        client_id = request.headers.get("X-Request-ID", "")
        request.id = tracing.current_trace_id() or uuid.uuid4().hex
        if refusal := identifier_refusal(client_id):
            response = _refused(request, {"X-Request-ID": refusal})
        else:
            request.id = client_id if _CLIENT_ID.match(client_id) else request.id
            response = self.get_response(request)
        response["X-Request-ID"] = request.id
        return response


def _refused(request: HttpRequest, fields: dict[str, list[str]]) -> HttpResponse:
    message = "Identifiers must be opaque ids; these hold personal data."
    if request.path.startswith("/api/"):
        body = {"error": {"code": "pii_in_identifier", "message": message, "fields": fields}}
        return JsonResponse(body, status=422)
    text = "\n".join([message, *(f"{name}: {' '.join(errors)}" for name, errors in fields.items())])
    return HttpResponse(text, status=422, content_type="text/plain; charset=utf-8")


def database_unavailable(request: HttpRequest, exception: BaseException | None) -> HttpResponse | None:
    """503 with Retry-After when the database cannot be reached; None for any other error.

    The broken connections are dropped, so the first request after the database is back simply
    reconnects: nothing needs a restart."""
    if not isinstance(exception, (OperationalError, InterfaceError)) or _is_query_error(exception):
        return None
    logger.warning("Database unavailable: %s", type(exception).__name__)
    metrics.DB_UNAVAILABLE.inc()
    for connection in connections.all(initialized_only=True):
        with contextlib.suppress(DatabaseError):  # it is broken anyway; the next query opens a fresh one
            connection.close()
    message = "The database is unavailable; retry in a few seconds."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": {"code": "unavailable", "message": message, "fields": {}}}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "5"
    return response


def _is_query_error(exception: Exception) -> bool:
    # OperationalError also covers query-level problems (e.g. a statement timeout); only a lost or
    # refused connection means "unavailable".
    text = str(exception).lower()
    return not any(word in text for word in ("connect", "terminat", "closed", "server", "socket", "shutdown"))


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return database_unavailable(request, exception)


class NoStoreMiddleware:
    """Nothing but static files may be kept by a browser or proxy: API answers, portal and console
    pages show memories, exports and new keys. Every response gets `Cache-Control: no-store` (with
    Django's never-cache set); pages also `Vary: Cookie`, API answers `Vary: Authorization`. First in
    MIDDLEWARE after tracing, so refusals and 503s from the middleware below get it too."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.STATIC_URL and request.path.startswith(settings.STATIC_URL):
            return response
        add_never_cache_headers(response)
        patch_vary_headers(response, ["Authorization"] if request.path.startswith("/api/") else ["Cookie"])
        return response
