import sys

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views import defaults
from django.views.decorators.http import require_GET

from apps.accounts.models import Membership, Subject
from apps.accounts.sessions import is_portal_only
from apps.api.exceptions import error_body
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
