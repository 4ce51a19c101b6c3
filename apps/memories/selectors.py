"""Reads of memories. Every selector starts from a workspace, so a caller cannot forget the tenant."""

import functools
import uuid
from datetime import timedelta

from django.db import connection
from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.utils import timezone

from apps.accounts.models import Subject, Workspace, external_id_error
from apps.audit.models import AccessLog, AuditEvent
from apps.memories.models import EmbeddingIndex, ForgetRequest, Ingest, Memory, Suppression
from memoryadmin.db import columns, fetch_row, instance


@functools.cache
def _subject_sql() -> str:
    return (
        f"SELECT {columns(Subject, 's')}, {columns(Workspace, 'w')} FROM {Subject._meta.db_table} s"
        f" JOIN {Workspace._meta.db_table} w ON w.id = s.workspace_id WHERE s.workspace_id = %s AND s.external_id = %s"
    )


def subject_get(*, workspace: Workspace, external_id: str) -> Subject | None:
    """The workspace's subject with this id (unique there), with its workspace as `select_related`
    attaches it: one hand-written statement, as every API call about a person reads it (the ORM's
    building and compiling of it cost ~0.6 ms of CPU)."""
    if external_id_error(external_id):
        return None
    row = fetch_row(_subject_sql(), [workspace.pk, external_id])
    if row is None:
        return None
    subject = instance(Subject, row)
    Subject._meta.get_field("workspace").set_cached_value(
        subject, instance(Workspace, row, len(Subject._meta.concrete_fields))
    )
    return subject


def narrow(memories: QuerySet[Memory], *, kinds=None, categories=None, session_id=None) -> QuerySet[Memory]:
    """The optional filters that lists and recall share."""
    if kinds:
        memories = memories.filter(kind__in=kinds)
    if categories:
        memories = memories.filter(category__in=categories)
    if session_id:
        memories = memories.filter(session_id=session_id)
    return memories


def fact_is_known(*, subject: Subject, key: str) -> bool:
    """Does the person already have an active profile memory under this (normalized) key?"""
    return Memory.objects.filter(
        subject=subject, kind=Memory.Kind.PROFILE, key=key, status=Memory.Status.ACTIVE
    ).exists()


def memory_list(
    *,
    workspace: Workspace,
    subject: Subject,
    statuses: tuple[str, ...] = (Memory.Status.ACTIVE,),
    kind: str | None = None,
    category: str | None = None,
    session_id: str | None = None,
    text_contains: str | None = None,
) -> QuerySet[Memory]:
    """Memories of one subject, active ones by default, newest first."""
    memories = Memory.objects.filter(workspace=workspace, subject=subject, status__in=statuses)
    if Memory.Status.DELETED in statuses:  # a delete the person can still undo is not shown as a tombstone
        memories = memories.exclude(lineage__in=ForgetRequest.objects.filter(subject=subject).values("lineage"))
    memories = narrow(memories, kinds=kind and [kind], categories=category and [category], session_id=session_id)
    if text_contains:
        memories = memories.filter(text__icontains=text_contains)
    return memories.select_related("source__agent").order_by("-updated_at", "-id")


def memory_get(*, workspace: Workspace, memory_id: uuid.UUID | str, include_deleted: bool = False) -> Memory | None:
    """One memory version by id; forgotten ones (tombstones) only when asked for."""
    try:
        memory_id = uuid.UUID(str(memory_id))
    except ValueError:
        return None
    memories = Memory.objects.filter(workspace=workspace, pk=memory_id)
    if not include_deleted:
        memories = memories.exclude(status=Memory.Status.DELETED)
    return memories.select_related("subject", "source__agent").first()


def memory_history(*, workspace: Workspace, memory: Memory) -> QuerySet[Memory]:
    """Every version of `memory`, oldest first."""
    return (
        Memory.objects.filter(workspace=workspace, lineage=memory.lineage)
        .select_related("source__agent")
        .order_by("version")
    )


def _attach_changes(workspace: Workspace, versions: list[Memory]) -> list[Memory]:
    """Set `.change` on each version: the audit event that created it (who, when, why)."""
    events = AuditEvent.objects.filter(
        workspace=workspace, memory__in=versions, action__in=AuditEvent.VERSION_CREATING_ACTIONS
    ).order_by("created_at", "id")
    change_of: dict[uuid.UUID, AuditEvent] = {}
    for event in events:
        if event.memory_id is not None:
            change_of.setdefault(event.memory_id, event)
    for version in versions:
        version.change = change_of.get(version.id)  # type: ignore[attr-defined]  # for the template
    return versions


def memory_history_with_changes(*, workspace: Workspace, memory: Memory) -> list[Memory]:
    """Every version oldest first, each with `.change`: the actor and time that made it."""
    return _attach_changes(workspace, list(memory_history(workspace=workspace, memory=memory)))


def subject_export(*, workspace: Workspace, subject: Subject) -> dict:
    """Everything kept about a subject: each memory with all its versions, changes and sources.
    Forgotten memories are not kept, so they are not in it (their tombstones hold nothing)."""
    versions = _attach_changes(
        workspace,
        list(
            Memory.objects.filter(workspace=workspace, subject=subject)
            .exclude(status=Memory.Status.DELETED)
            .select_related("source__agent")
            .order_by("created_at", "version")
        ),
    )
    lineages: dict[uuid.UUID, list[Memory]] = {}
    for version in versions:  # oldest first, so each chain is in version order
        lineages.setdefault(version.lineage, []).append(version)
    memories = [
        {"lineage": lineage, "status": chain[-1].status, "versions": chain} for lineage, chain in lineages.items()
    ]
    return {"subject": subject, "exported_at": timezone.now(), "memories": memories}


def memory_reads(*, workspace: Workspace, memory: Memory, limit: int = 50) -> list[AccessLog]:
    """Which agents recalled any version of `memory`, newest first."""
    return list(
        AccessLog.objects.filter(workspace=workspace, memory__lineage=memory.lineage)
        .select_related("agent")
        .order_by("-created_at")[:limit]
    )


def memory_reads_by_agent(*, workspace: Workspace, memory: Memory) -> list[dict]:
    """Who read any version of `memory`: one row per agent (name, times, last time), latest first."""
    return list(
        AccessLog.objects.filter(workspace=workspace, memory__lineage=memory.lineage)
        .values("agent__name")
        .annotate(times=Count("id"), last=Max("created_at"))
        .order_by("-last")
    )


def forget_requests_pending(*, workspace: Workspace, subject: Subject) -> list[ForgetRequest]:
    """The person's deletes that can still be undone, newest first, each with its memory."""
    return list(
        ForgetRequest.objects.filter(workspace=workspace, subject=subject, due_at__gt=timezone.now())
        .select_related("memory")
        .order_by("-created_at")
    )


def forget_request_get(*, workspace: Workspace, subject: Subject, request_id) -> ForgetRequest | None:
    try:
        request_id = uuid.UUID(str(request_id))
    except ValueError:
        return None
    return ForgetRequest.objects.filter(workspace=workspace, subject=subject, pk=request_id).first()


def suppression_list(*, workspace: Workspace, subject: Subject) -> QuerySet[Suppression]:
    return Suppression.objects.filter(workspace=workspace, subject=subject).order_by("-created_at", "-id")


def suppression_get(*, workspace: Workspace, subject: Subject, suppression_id: int) -> Suppression | None:
    return (
        Suppression.objects.filter(workspace=workspace, subject=subject, pk=suppression_id)
        .select_related("subject__workspace")
        .first()
    )


def memory_audit_events(*, workspace: Workspace, memory: Memory) -> QuerySet[AuditEvent]:
    """The audit events of every version of `memory`, oldest first."""
    return AuditEvent.objects.filter(workspace=workspace, memory__lineage=memory.lineage).order_by("created_at", "id")


def memory_counts(*, workspace: Workspace) -> list[dict]:
    """Rows of kind, category, status and count, for the dashboard."""
    return list(
        Memory.objects.filter(workspace=workspace)
        .values("kind", "category", "status")
        .annotate(n=Count("id"))
        .order_by("kind", "category", "status")
    )


def redaction_totals(*, workspace: Workspace) -> dict[str, int]:
    """Entity type → how many values redaction removed from this workspace's memories."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.key, SUM(r.value::int) FROM memories_memory m, jsonb_each_text(m.redactions) r "
            "WHERE m.workspace_id = %s GROUP BY r.key ORDER BY 2 DESC",
            [workspace.pk],
        )
        return dict(cursor.fetchall())


def subject_search(*, workspace: Workspace, query: str = "") -> QuerySet[Subject]:
    """Subjects whose external id or name contains `query`, with their active memory count."""
    subjects = Subject.objects.filter(workspace=workspace)
    if query:
        subjects = subjects.filter(Q(external_id__icontains=query) | Q(display_name__icontains=query))
    return subjects.annotate(
        active=Count("memories", filter=Q(memories__status=Memory.Status.ACTIVE)), total=Count("memories")
    ).order_by("external_id")


def subject_by_id(*, workspace: Workspace, subject_id: int) -> Subject | None:
    return Subject.objects.filter(workspace=workspace, pk=subject_id).first()


def ingest_get(*, workspace: Workspace, ingest_id: uuid.UUID | str) -> Ingest | None:
    try:
        ingest_id = uuid.UUID(str(ingest_id))
    except ValueError:
        return None
    return Ingest.objects.filter(workspace=workspace, pk=ingest_id).select_related("subject").first()


def ingest_previous_reply(*, ingest: Ingest, within=timedelta(hours=1)) -> str:
    """What the assistant said just before this turn: its reply in the person's previous turn of the same
    session, within the hour ("What should I call you?" before "Just Jo"); "" when there is none."""
    earlier = (
        Ingest.objects.filter(
            workspace=ingest.workspace_id,
            subject=ingest.subject_id,
            session_id=ingest.session_id,
            occurred_at__lt=ingest.occurred_at,
            occurred_at__gte=ingest.occurred_at - within,
        )
        .order_by("-occurred_at")
        .values_list("assistant_message", flat=True)
        .first()
    )
    return earlier or ""


def ingest_counts(*, workspace: Workspace) -> dict[str, int]:
    """Turns by status, and how many instruction-like texts were refused: by extraction in posted
    turns, and by the services in direct writes and corrections (their audit events; those of
    turns are already in the turns' count)."""
    counts = Ingest.objects.filter(workspace=workspace).aggregate(
        **{status: Count("id", filter=Q(status=status)) for status in Ingest.Status.values},
        injections=Sum("injections"),
    )
    counts = {name: count or 0 for name, count in counts.items()}
    counts["injections"] += (
        AuditEvent.objects.filter(workspace=workspace, action=AuditEvent.Action.MEMORY_INJECTION_REFUSED)
        .exclude(after__channel="turns")
        .count()
    )
    return counts


def metrics_snapshot() -> dict:
    """For /metrics (memoryadmin.metrics), over every workspace at once, by workspace slug: memory
    rows by status and kind, active memories without a vector of the active model, and unfinished
    turns by status with the oldest one's posting time. One aggregate query each."""
    memories = Memory.objects.values("workspace__slug", "status", "kind").annotate(n=Count("id"))
    model_id = (
        EmbeddingIndex.objects.filter(state=EmbeddingIndex.State.ACTIVE).values_list("model_id", flat=True).first()
    )
    unembedded = Memory.objects.filter(status=Memory.Status.ACTIVE)
    if model_id is not None:  # else a fresh database: no memory has a vector yet
        unembedded = unembedded.exclude(embeddings__model_id=model_id)
    backlog = unembedded.values("workspace__slug").annotate(n=Count("id"))
    ingests = (
        Ingest.objects.filter(status__in=[Ingest.Status.QUEUED, Ingest.Status.RUNNING])
        .values("workspace__slug", "status")
        .annotate(n=Count("id"), oldest=Min("created_at"))
    )

    def rows(query) -> list[dict]:
        return [
            {("workspace" if name == "workspace__slug" else name): value for name, value in row.items()}
            for row in query
        ]

    return {"now": timezone.now(), "memories": rows(memories), "backlog": rows(backlog), "ingests": rows(ingests)}
