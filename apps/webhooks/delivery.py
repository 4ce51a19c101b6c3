"""Sending: render the event for the endpoint, sign it, POST it through the guarded client, record
the attempt, and decide what comes next — delivered, a retry after an exponential, jittered delay,
or failed after the last attempt; an endpoint that keeps failing is switched off."""

import json
import random
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.memories.models import Ingest
from apps.privacy import PIIRejected, redact
from apps.webhooks.events import publish
from apps.webhooks.models import TEST_EVENT, WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent
from apps.webhooks.signing import SIGNATURE_HEADER, endpoint_secret, sign
from memoryadmin import metrics
from memoryadmin.http import OutboundError, guarded_opener, post

State = WebhookDelivery.State
SYSTEM = Actor.system("webhooks")
RESPONSE_MAX_BYTES = 64 * 1024
LEASE_SECONDS = 30  # beyond the time-out: a worker that died mid-send frees its delivery after this
EARLY_SECONDS = 1  # a retry task may arrive this much before its time (clocks, rounding)


def retry_delay(attempt: int) -> float:
    """Seconds before the attempt after `attempt`: base · 2^(attempt-1), capped, the upper half
    jittered ("equal jitter": never less than half the step, so retries still spread out)."""
    step = min(settings.WEBHOOK_RETRY_MAX_SECONDS, settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (attempt - 1))
    return float(step / 2 + random.uniform(0, step / 2))


def render(event: WebhookEvent, endpoint: WebhookEndpoint) -> bytes:
    """The body sent for `event`. The key, and for an opted-in endpoint the stored (redacted) text
    and value, come from the audit event now — forgetting has emptied it if the memory is gone."""
    data = dict(event.data)
    if "memory" in data:
        after = event.audit_event.after if event.audit_event else {}
        memory = {**data["memory"], "key": after.get("key", "")}
        if endpoint.include_content:
            memory.update(text=after.get("text", ""), value=after.get("value", ""))
        data["memory"] = memory
    if "ingest" in data:  # the turn id is erased with the turn when its person is forgotten
        turn_id = Ingest.objects.filter(pk=data["ingest"]["id"]).values_list("turn_id", flat=True).first()
        data["ingest"] = {**data["ingest"], "turn_id": turn_id or ""}
    payload = {
        "id": str(event.id),
        "type": event.type,
        "created_at": event.created_at.isoformat(),
        "workspace": endpoint.workspace.slug,
        "data": data,
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def _send(delivery: WebhookDelivery, body: bytes) -> tuple[int | None, str, float]:
    """(status code, error or "", latency in ms) of one POST."""
    endpoint, event = delivery.endpoint, delivery.event
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "memoryadmin-webhooks/1",
        "Memoryadmin-Event": event.type,
        "Memoryadmin-Event-Id": str(event.id),
        "Memoryadmin-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: sign(body, endpoint_secret(endpoint.secret_salt)),
    }
    opener = guarded_opener(allow_private=settings.WEBHOOK_ALLOW_PRIVATE_TARGETS)
    started = time.monotonic()
    status: int | None
    try:
        status, _ = post(
            opener, endpoint.url, body, headers=headers, timeout=settings.WEBHOOK_TIMEOUT, max_bytes=RESPONSE_MAX_BYTES
        )
        error = ""
    except OutboundError as failure:
        status = failure.status
        # Our own words as they are; the receiver's (which may quote anything) redacted.
        error = f"HTTP {status}: {_redacted(failure.detail)}" if status else str(failure)
    return status, error, (time.monotonic() - started) * 1000


def _redacted(text: str) -> str:
    try:
        return redact(text[:500]).text
    except PIIRejected:
        return "(the answer held personal data and was left out)"


def deliver(*, delivery_id: int) -> float | None:
    """Make the next attempt of a delivery that is due; None, or the seconds until its retry.
    A delivery that is not due (delivered, failed, or claimed by another worker) is left alone."""
    now = timezone.now()
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id,
        state=State.PENDING,
        next_attempt_at__lte=now + timedelta(seconds=EARLY_SECONDS),
    ).update(next_attempt_at=now + timedelta(seconds=settings.WEBHOOK_TIMEOUT + LEASE_SECONDS))
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.select_related("endpoint__workspace", "event__audit_event").get(pk=delivery_id)
    is_test = delivery.event.type == TEST_EVENT
    if not delivery.endpoint.enabled and not is_test:
        WebhookDelivery.objects.filter(pk=delivery_id).update(state=State.FAILED, next_attempt_at=None)
        return None
    status, error, latency = _send(delivery, render(delivery.event, delivery.endpoint))
    return _record(delivery, status=status, error=error, latency=latency, is_test=is_test)


@transaction.atomic
def _record(
    delivery: WebhookDelivery, *, status: int | None, error: str, latency: float, is_test: bool
) -> float | None:
    endpoint = WebhookEndpoint.objects.select_for_update().select_related("workspace").get(pk=delivery.endpoint_id)
    number, ok = delivery.attempts + 1, not error
    retry_in = None
    if ok:
        state = State.DELIVERED
    elif is_test or number >= settings.WEBHOOK_MAX_ATTEMPTS:
        state = State.FAILED
    else:
        state, retry_in = State.PENDING, retry_delay(number)
    retry_at = timezone.now() + timedelta(seconds=retry_in) if retry_in is not None else None
    metrics.WEBHOOK_ATTEMPTS.labels("delivered" if ok else "retrying" if retry_in is not None else "failed").inc()
    WebhookAttempt.objects.create(
        workspace_id=delivery.workspace_id,
        delivery=delivery,
        number=number,
        ok=ok,
        status_code=status,
        latency_ms=latency,
        error=error,
        next_retry_at=retry_at,
        manual=delivery.manual,
    )
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        state=state,
        attempts=number,
        next_attempt_at=retry_at,
        last_status_code=status,
        manual=False,
        updated_at=timezone.now(),
    )
    if is_test:  # a test says nothing about the endpoint's record
        return None
    endpoint.consecutive_failures = 0 if ok else endpoint.consecutive_failures + 1
    endpoint.save(update_fields=["consecutive_failures", "updated_at"])
    if not ok and endpoint.enabled and endpoint.consecutive_failures >= settings.WEBHOOK_DISABLE_AFTER_FAILURES:
        _auto_disable(endpoint)
        return None
    return retry_in


def _auto_disable(endpoint: WebhookEndpoint) -> None:
    reason = f"Switched off after {endpoint.consecutive_failures} consecutive failed deliveries."
    endpoint.enabled, endpoint.disabled_reason = False, reason
    endpoint.save(update_fields=["enabled", "disabled_reason", "updated_at"])
    WebhookDelivery.objects.filter(endpoint=endpoint, state=State.PENDING).update(
        state=State.FAILED, next_attempt_at=None
    )
    audit_record(
        workspace=endpoint.workspace,
        actor=SYSTEM,
        action=AuditEvent.Action.WEBHOOK_AUTO_DISABLED,
        after=endpoint_facts(endpoint),
        reason=reason,
    )


def endpoint_facts(endpoint: WebhookEndpoint) -> dict:
    """What the audit trail keeps of an endpoint (never its secret)."""
    return {
        "id": endpoint.pk,
        "url": endpoint.url,
        "events": list(endpoint.events),
        "include_content": endpoint.include_content,
        "enabled": endpoint.enabled,
    }


def retry_due(*, limit: int = 500) -> int:
    """Hand Celery the deliveries that are due: retries, and any whose publish the broker refused
    or whose worker died mid-send. Returns how many went."""
    due = list(
        WebhookDelivery.objects.filter(state=State.PENDING, next_attempt_at__lte=timezone.now())
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    publish(due)
    return len(due)
