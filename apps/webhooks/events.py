"""The outbox: an event is recorded in the transaction of the change it announces, with one
pending delivery per enabled endpoint that wants it, and handed to Celery when that transaction
commits. A rolled-back change sends nothing; a broker that is down leaves the deliveries pending
for the `webhook_retry_due_task` sweep.

Two callers, both at the point where the change is recorded: `audit_record` (every memory and
subject change is audited there, so no write path is missed) and the ingest status change
(`ingest.done` / `ingest.failed`, which are not audit events).
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.memories.tasks import enqueue
from apps.webhooks.models import EventType, WebhookDelivery, WebhookEndpoint, WebhookEvent
from apps.webhooks.tasks import webhook_deliver_task

if TYPE_CHECKING:
    from apps.memories.models import Ingest

# audit action → webhook event
AUDITED: dict[str, str] = {
    AuditEvent.Action.MEMORY_CREATED: EventType.MEMORY_CREATED,
    AuditEvent.Action.MEMORY_SUPERSEDED: EventType.MEMORY_SUPERSEDED,
    AuditEvent.Action.MEMORY_CORRECTED: EventType.MEMORY_CORRECTED,
    AuditEvent.Action.MEMORY_FORGOTTEN: EventType.MEMORY_DELETED,
    AuditEvent.Action.SUBJECT_FORGOTTEN: EventType.SUBJECT_FORGOTTEN,
}


def webhook_emit(
    *,
    workspace_id: int,
    type: str,
    data: dict,
    audit_event: AuditEvent | None = None,
    endpoints: list[WebhookEndpoint] | None = None,
    publish_on_commit: bool = True,
) -> list[int]:
    """Record the event for every enabled endpoint of the workspace that wants `type` (or for
    `endpoints`: a test); the ids of the deliveries, published after commit unless the caller
    sends them itself."""
    if endpoints is None:
        endpoints = list(
            WebhookEndpoint.objects.filter(workspace_id=workspace_id, enabled=True, events__contains=[type]).only("id")
        )
    if not endpoints:
        return []
    event = WebhookEvent.objects.create(workspace_id=workspace_id, type=type, data=data, audit_event=audit_event)
    now = timezone.now()
    deliveries = WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(workspace_id=workspace_id, endpoint=endpoint, event=event, next_attempt_at=now)
            for endpoint in endpoints
        ]
    )
    ids = [delivery.pk for delivery in deliveries]
    if publish_on_commit:
        transaction.on_commit(lambda: publish(ids), robust=True)
    return ids


def publish(delivery_ids: list[int]) -> None:
    for delivery_id in delivery_ids:
        enqueue(webhook_deliver_task, delivery_id)


def emit_for_audits(events: Sequence[AuditEvent]) -> None:
    """`emit_for_audit` for many audit events (a batch import): the enabled endpoints of each
    workspace are read once."""
    announced = [(event, type) for event in events if (type := AUDITED.get(event.action)) is not None]
    endpoints: dict[int, list[WebhookEndpoint]] = {}
    for workspace_id in {event.workspace_id for event, _type in announced}:
        endpoints[workspace_id] = list(
            WebhookEndpoint.objects.filter(
                workspace_id=workspace_id,
                enabled=True,
                events__overlap=list({type for _event, type in announced}),
            ).only("id", "events")
        )
    for event, type in announced:
        if wanting := [endpoint for endpoint in endpoints[event.workspace_id] if type in endpoint.events]:
            emit_for_audit(event, endpoints=wanting)


def emit_for_audit(event: AuditEvent, *, endpoints: list[WebhookEndpoint] | None = None) -> None:
    """The webhook event of an audit event, if its action is one; ids and kinds only (to
    `endpoints` when the caller has read them, else to every endpoint that wants it)."""
    type = AUDITED.get(event.action)
    if type is None:
        return
    data: dict[str, object] = {
        "subject": event.subject.external_id if event.subject else None,
        "actor": event.actor_type,
    }
    if type == EventType.SUBJECT_FORGOTTEN:
        data["memories_erased"] = event.after.get("memories_erased", 0)
    elif (memory := event.memory) is not None:
        data["memory"] = {
            "id": str(memory.id),
            "lineage": str(memory.lineage),
            "version": memory.version,
            "supersedes": str(memory.supersedes_id) if memory.supersedes_id else None,
            "kind": memory.kind,
            "category": memory.category,
            "status": memory.status,
            "created_at": memory.created_at.isoformat(),
        }
    webhook_emit(workspace_id=event.workspace_id, type=type, data=data, audit_event=event, endpoints=endpoints)


def emit_for_ingest(ingest: "Ingest") -> None:
    """ingest.done / ingest.failed, with the ids of the memories the turn wrote."""
    result = ingest.result or {}
    webhook_emit(
        workspace_id=ingest.workspace_id,
        type=EventType.INGEST_DONE if ingest.status == "done" else EventType.INGEST_FAILED,
        data={
            "subject": ingest.subject.external_id,
            "ingest": {
                "id": str(ingest.id),
                "status": ingest.status,
                "created": [m["id"] for m in result.get("created", [])],
                "updated": [m["id"] for m in result.get("updated", [])],
            },
        },
    )
