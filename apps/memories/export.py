"""Everything kept about a person, as one JSON-ready document (API export and the portal's download)."""

from django.db import transaction

from apps.accounts.models import Subject, Workspace
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.memories import selectors
from apps.memories.models import Memory


def _iso(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def memory_document(memory: Memory) -> dict:
    source = memory.source
    change = getattr(memory, "change", None)
    return {
        "id": str(memory.id),
        "kind": memory.kind,
        "category": memory.category,
        "key": memory.key,
        "value": memory.value,
        "text": memory.text,
        "confidence": memory.confidence,
        "importance": memory.importance,
        "pinned": memory.pinned,
        "sensitivity": memory.sensitivity,
        "status": memory.status,
        "version": memory.version,
        "supersedes": str(memory.supersedes_id) if memory.supersedes_id else None,
        "valid_from": _iso(memory.valid_from),
        "valid_to": _iso(memory.valid_to),
        "expires_at": _iso(memory.expires_at),
        "session_id": memory.session_id,
        "occurred_at": _iso(memory.occurred_at),
        "source": source
        and {
            "agent": source.agent.name if source.agent else None,
            "session_id": source.session_id,
            "turn_id": source.turn_id,
            "channel": source.channel,
            "actor_type": source.actor_type,
            "extractor": source.extractor,
            "extractor_version": source.extractor_version,
            "excerpt": source.excerpt,
            "received_at": _iso(source.received_at),
        },
        "redactions": memory.redactions,
        "metadata": memory.metadata,
        "created_at": _iso(memory.created_at),
        "updated_at": _iso(memory.updated_at),
        "change": change
        and {
            "action": change.action,
            "actor_type": change.actor_type,
            "actor_name": change.actor_name,
            "reason": change.reason,
            "at": _iso(change.created_at),
        },
    }


def export_document(*, workspace: Workspace, subject: Subject) -> dict:
    export = selectors.subject_export(workspace=workspace, subject=subject)
    return {
        "subject": {
            "external_id": subject.external_id,
            "display_name": subject.display_name,
            "timezone": subject.timezone,
            "created_at": _iso(subject.created_at),
        },
        "exported_at": _iso(export["exported_at"]),
        "memories": [
            {
                "lineage": str(m["lineage"]),
                "status": m["status"],
                "versions": [memory_document(v) for v in m["versions"]],
            }
            for m in export["memories"]
        ],
    }


@transaction.atomic
def subject_export_audited(*, workspace: Workspace, subject: Subject, actor: Actor, reason: str) -> dict:
    """`export_document` for someone other than the person (an operator): who took a copy, when and
    why is kept in the audit trail (how many memories, never their content)."""
    document = export_document(workspace=workspace, subject=subject)
    audit_record(
        workspace=workspace,
        actor=actor,
        action=AuditEvent.Action.SUBJECT_EXPORTED,
        subject=subject,
        after={"memories": len(document["memories"])},
        reason=reason,
    )
    return document
