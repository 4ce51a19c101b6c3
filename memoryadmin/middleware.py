import re
import uuid

from django.http import HttpRequest, HttpResponse

_CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class RequestIdMiddleware:
    """Give every request an id (the client's X-Request-ID when sane) for logs and the audit trail."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        client_id = request.headers.get("X-Request-ID", "")
        request.id = client_id if _CLIENT_ID.match(client_id) else uuid.uuid4().hex
        response = self.get_response(request)
        response["X-Request-ID"] = request.id
        return response
