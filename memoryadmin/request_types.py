"""What our middleware adds to Django's request, for the type checker (django-htmx's pattern).

Views annotate `request` with the class that matches the middleware and decorators they run behind:
`AppRequest` everywhere (RequestIdMiddleware, HtmxMiddleware), `PortalRequest` behind the portal's
sign-in (apps/portal/types.py), `ConsoleRequest` behind the console's (apps/console/types.py).
"""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class AppRequest(HttpRequest):
    id: str  # RequestIdMiddleware: the client's X-Request-ID when it is sane, else the trace id
    htmx: HtmxDetails
