"""Webhooks: a workspace's endpoints, the events to send them (the outbox), one delivery of an
event to an endpoint, and one row per HTTP attempt of a delivery.

No memory content is stored here. An event keeps ids, kinds and counts; the key and the (already
redacted) text and value that an opted-in endpoint receives are read when it is sent from the audit
event that recorded the change — which forgetting empties — so a forgotten memory's content never
leaves after it was forgotten, and these tables never need erasing.
"""

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Workspace


class EventType(models.TextChoices):
    MEMORY_CREATED = "memory.created", "memory.created"
    MEMORY_SUPERSEDED = "memory.superseded", "memory.superseded"
    MEMORY_CORRECTED = "memory.corrected", "memory.corrected"
    MEMORY_DELETED = "memory.deleted", "memory.deleted"
    SUBJECT_FORGOTTEN = "subject.forgotten", "subject.forgotten"
    INGEST_DONE = "ingest.done", "ingest.done"
    INGEST_FAILED = "ingest.failed", "ingest.failed"


TEST_EVENT = "webhook.test"  # sent by "Send test" only, whatever the endpoint's filter says


class WebhookEndpoint(models.Model):
    """Where a workspace's events go. The signing secret is not stored: it is derived from
    SECRET_KEY and `secret_salt` (`apps.webhooks.signing.endpoint_secret`); rotating changes the salt."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=500)
    description = models.CharField(max_length=200, blank=True)
    events = ArrayField(models.CharField(max_length=32, choices=EventType.choices))
    include_content = models.BooleanField(default=False)
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=200, blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    secret_salt = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        indexes = [models.Index(fields=["workspace", "enabled"], name="webhook_endpoint_workspace")]

    def __str__(self) -> str:
        return self.url


class WebhookEvent(models.Model):
    """One change worth announcing, written in the transaction that made it (the outbox)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    type = models.CharField(max_length=32)
    audit_event = models.ForeignKey(
        "audit.AuditEvent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    data = models.JSONField(default=dict)  # ids, kinds, statuses, counts: never a key or content
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("webhook event")
        verbose_name_plural = _("webhook events")

    def __str__(self) -> str:
        return f"{self.type} event {self.id}"


class WebhookDelivery(models.Model):
    """One event to one endpoint: pending until a 2xx answer (delivered) or the last attempt (failed)."""

    class State(models.TextChoices):
        PENDING = "pending", "pending"
        DELIVERED = "delivered", "delivered"
        FAILED = "failed", "failed"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries")
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)  # when pending: the next try (or a claim's lease)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    manual = models.BooleanField(default=False)  # the next attempt was asked for in the console
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="webhook_delivery_due"),
            models.Index(fields=["endpoint", "-created_at"], name="webhook_delivery_endpoint"),
        ]

    def __str__(self) -> str:
        return f"delivery of {self.event_id} to {self.endpoint_id} ({self.state})"


class WebhookAttempt(models.Model):
    """One HTTP request of a delivery: what came back, how long it took, and when the next try is."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_rows")
    number = models.PositiveIntegerField()
    ok = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    latency_ms = models.FloatField()
    error = models.TextField(blank=True)  # redacted: a receiver's answer may quote anything
    next_retry_at = models.DateTimeField(null=True, blank=True)
    manual = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("webhook attempt")
        verbose_name_plural = _("webhook attempts")
        indexes = [models.Index(fields=["delivery", "number"], name="webhook_attempt_delivery")]

    def __str__(self) -> str:
        return f"attempt {self.number} of delivery {self.delivery_id}"
