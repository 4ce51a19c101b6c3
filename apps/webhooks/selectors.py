"""Reads of webhooks, always starting from a workspace."""

from django.db.models import Prefetch, QuerySet

from apps.accounts.models import Workspace
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint


def endpoint_list(*, workspace: Workspace) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(workspace=workspace).order_by("-created_at")


def endpoint_get(*, workspace: Workspace, endpoint_id: int) -> WebhookEndpoint | None:
    return WebhookEndpoint.objects.select_related("workspace").filter(workspace=workspace, pk=endpoint_id).first()


def delivery_get(*, workspace: Workspace, delivery_id: int) -> WebhookDelivery | None:
    return (
        WebhookDelivery.objects.select_related("endpoint__workspace", "event")
        .filter(workspace=workspace, pk=delivery_id)
        .first()
    )


def delivery_log(*, workspace: Workspace, endpoint: WebhookEndpoint) -> QuerySet[WebhookDelivery]:
    """The endpoint's deliveries, newest first, each with its attempts (newest first)."""
    return (
        WebhookDelivery.objects.filter(workspace=workspace, endpoint=endpoint)
        .select_related("event")
        .prefetch_related(Prefetch("attempt_rows", queryset=WebhookAttempt.objects.order_by("-number")))
        .order_by("-created_at", "-pk")
    )
