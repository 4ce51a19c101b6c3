from django.contrib import admin

from apps.accounts.admin import ReadOnlyAdmin
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ReadOnlyAdmin):
    list_display = ["url", "workspace", "enabled", "include_content", "consecutive_failures", "created_at"]
    list_filter = ["enabled"]
    exclude = ["secret_salt"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "endpoint", "state", "attempts", "last_status_code", "next_attempt_at"]
    list_filter = ["state"]
    list_select_related = ["endpoint"]


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "delivery_id", "number", "ok", "status_code", "latency_ms"]
