"""Reads of memories. Every selector starts from a workspace, so a caller cannot forget the tenant."""

import uuid

from django.db.models import QuerySet

from apps.accounts.models import Subject, Workspace
from apps.audit.models import AuditEvent
from apps.memories.models import Memory


def subject_get(*, workspace: Workspace, external_id: str) -> Subject | None:
    return Subject.objects.filter(workspace=workspace, external_id=external_id).first()


def memory_list(
    *,
    workspace: Workspace,
    subject: Subject,
    statuses: tuple[str, ...] = (Memory.Status.ACTIVE,),
    kind: str | None = None,
    category: str | None = None,
    session_id: str | None = None,
) -> QuerySet[Memory]:
    """Memories of one subject, active ones by default, newest first."""
    memories = Memory.objects.filter(workspace=workspace, subject=subject, status__in=statuses)
    if kind:
        memories = memories.filter(kind=kind)
    if category:
        memories = memories.filter(category=category)
    if session_id:
        memories = memories.filter(session_id=session_id)
    return memories.select_related("source__agent").order_by("-updated_at", "-id")


def memory_get(*, workspace: Workspace, memory_id: uuid.UUID | str) -> Memory | None:
    try:
        memory_id = uuid.UUID(str(memory_id))
    except ValueError:
        return None
    return (
        Memory.objects.filter(workspace=workspace, pk=memory_id)
        .select_related("subject", "source__agent")
        .first()
    )


def memory_history(*, workspace: Workspace, memory: Memory) -> QuerySet[Memory]:
    """Every version of `memory`, oldest first."""
    return (
        Memory.objects.filter(workspace=workspace, lineage=memory.lineage)
        .select_related("source__agent")
        .order_by("version")
    )


def memory_audit_events(*, workspace: Workspace, memory: Memory) -> QuerySet[AuditEvent]:
    """The audit events of every version of `memory`, oldest first."""
    return AuditEvent.objects.filter(workspace=workspace, memory__lineage=memory.lineage).order_by("created_at", "id")
