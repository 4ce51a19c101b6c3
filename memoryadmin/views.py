import hmac
import ipaddress
import sys

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views import defaults
from django.views.decorators.http import require_GET

from apps.accounts.models import Membership, Subject
from apps.accounts.sessions import is_portal_only
from apps.api.exceptions import error_body
from memoryadmin import metrics as prometheus
from memoryadmin.middleware import database_unavailable


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed-in operators go to the console and people to their memories; others see the landing page."""
    if request.user.is_authenticated:
        if Membership.objects.filter(user=request.user).exists() and not is_portal_only(request):
            return redirect("console:dashboard")
        if Subject.objects.filter(user=request.user).exists():
            return redirect("portal:memories")
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus text format, for a bearer METRICS_TOKEN or an address in METRICS_ALLOWED_IPS."""
    if refusal := _metrics_refusal(request):
        return refusal
    return HttpResponse(prometheus.exposition(), content_type=prometheus.CONTENT_TYPE)


def _metrics_refusal(request: HttpRequest) -> HttpResponse | None:
    token, networks = settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS
    if not (token or networks):
        return HttpResponse(
            "Metrics are off: set METRICS_TOKEN or METRICS_ALLOWED_IPS.",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    if networks and _peer_in(request, networks):
        return None
    scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
    if token and scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode()):
        return None
    if token:
        response = HttpResponse(
            "A valid metrics token is required.", status=401, content_type="text/plain; charset=utf-8"
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse("This address may not read the metrics.", status=403, content_type="text/plain; charset=utf-8")


def _peer_in(request: HttpRequest, networks: list) -> bool:
    """The connection's own address (never X-Forwarded-For, which a client writes) is in `networks`."""
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:  # a Unix socket, say
        return False
    address = getattr(address, "ipv4_mapped", None) or address  # ::ffff:10.0.0.5 is 10.0.0.5
    return any(address in network for network in networks)


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """API paths answer in the API's error shape; pages get Django's page."""
    if _wants_json(request):
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # Errors raised outside views (in middleware) land here; a lost database is still a 503.
    if unavailable := database_unavailable(request, sys.exc_info()[1]):
        return unavailable
    if _wants_json(request):
        return JsonResponse(error_body("server_error", "Something went wrong on our side."), status=500)
    return defaults.server_error(request)
