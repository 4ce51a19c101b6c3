"""Lifecycle jobs: expire, archive the unread, cap episodes per subject, consolidate constraint
fragments, compact old sessions, prune the access log. Run by Celery beat (`lifecycle_run_task`) and by
`manage.py lifecycle JOB` (with a progress bar). Thresholds come from each workspace's retention
settings; every change is audited with actor = system. Each job takes `now`, so tests shift time.
The jobs decide; the services write (memories leave recall through `services.memories_retire`).
"""

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Coalesce

from apps.accounts.models import Subject, Workspace
from apps.accounts.selectors import retention_for
from apps.audit.models import AccessLog, AuditEvent, RecallStat
from apps.audit.services import Actor, audit_record
from apps.memories.models import Memory
from apps.memories.recall.scoring import recency
from apps.memories.services import InjectionRefused, episode_record, fact_upsert, memories_retire

SYSTEM = Actor.system("lifecycle")
ARCHIVE_MAX_IMPORTANCE = 0.3  # only memories below this importance are archived for being unread
CONSOLIDATE_MIN_FRAGMENTS = 3
COMPACT_AFTER_DAYS = 7
Progress = Callable[[Iterable], Iterable]


def _quiet(items: Iterable) -> Iterable:
    return items


def _active() -> QuerySet[Memory]:
    return Memory.objects.filter(status=Memory.Status.ACTIVE).only("id", "workspace_id", "subject_id")


def expire(*, now: datetime, progress: Progress = _quiet) -> int:
    """Memories past their expires_at become expired."""
    due = list(_active().filter(expires_at__lte=now))
    return sum(
        memories_retire(
            memories=batch,
            status=Memory.Status.EXPIRED,
            action=AuditEvent.Action.MEMORY_EXPIRED,
            now=now,
            reason="past its expiry",
            actor=SYSTEM,
        )
        for batch in progress(_batches(due))
    )


def archive_unread(*, now: datetime, progress: Progress = _quiet) -> int:
    """Low-importance memories no agent has read for the workspace's archive_unread_after_days."""
    archived = 0
    for workspace in progress(list(Workspace.objects.all())):
        days = retention_for(workspace=workspace).archive_unread_after_days
        stale = list(
            _active()
            .filter(workspace=workspace, pinned=False, importance__lt=ARCHIVE_MAX_IMPORTANCE)
            .exclude(category=Memory.Category.CONSTRAINT)
            .annotate(seen=Coalesce("last_accessed_at", "updated_at"))
            .filter(seen__lt=now - timedelta(days=days))
        )
        for batch in _batches(stale):
            archived += memories_retire(
                memories=batch,
                status=Memory.Status.ARCHIVED,
                action=AuditEvent.Action.MEMORY_ARCHIVED,
                now=now,
                reason=f"unimportant and unread for {days} days",
                actor=SYSTEM,
            )
    return archived


def enforce_capacity(*, now: datetime, progress: Progress = _quiet) -> int:
    """Per subject, keep the most valuable episodes (importance × recency) up to the workspace's
    subject_capacity; archive the rest. Pinned episodes always stay."""
    archived = 0
    capacity = {w.pk: retention_for(workspace=w).subject_capacity for w in Workspace.objects.all()}
    crowded = (
        Subject.objects.annotate(n=Count("memories", filter=Q(memories__status="active", memories__kind="episode")))
        .filter(n__gt=min(capacity.values(), default=0))
        .values_list("pk", "workspace_id", "n")
    )
    for subject_id, workspace_id, count in progress(list(crowded)):
        if count <= capacity[workspace_id]:
            continue
        episodes = list(Memory.objects.filter(subject_id=subject_id, status="active", kind="episode"))
        ranked = sorted(
            episodes,
            key=lambda m: (m.pinned, m.importance * recency(m, now=now, half_lives=settings.RECALL_HALF_LIFE_DAYS)),
            reverse=True,
        )
        surplus = ranked[capacity[workspace_id] :]
        archived += memories_retire(
            memories=surplus,
            status=Memory.Status.ARCHIVED,
            action=AuditEvent.Action.MEMORY_ARCHIVED,
            now=now,
            reason=f"over the capacity of {capacity[workspace_id]} episodes",
            actor=SYSTEM,
        )
    return archived


def consolidate(*, now: datetime, progress: Progress = _quiet) -> int:
    """Constraints accumulate; once one key holds several fragments ("no peanuts", "no shellfish",
    "no pork") they become one constraint that lists them and keeps their sources."""
    groups = (
        Memory.objects.filter(status="active", kind="profile", category="constraint")
        .values("subject_id", "key")
        .annotate(n=Count("id"))
        .filter(n__gte=CONSOLIDATE_MIN_FRAGMENTS)
    )
    made = 0
    for group in progress(list(groups)):
        with transaction.atomic():
            fragments = list(
                Memory.objects.select_for_update(no_key=True)
                .filter(subject_id=group["subject_id"], key=group["key"], status="active", category="constraint")
                .order_by("created_at")
            )
            values = list(dict.fromkeys(m.value for m in fragments))
            try:
                summary = fact_upsert(
                    subject=fragments[0].subject,
                    key=group["key"],
                    value="; ".join(values),
                    category="constraint",
                    confidence=max(m.confidence for m in fragments),
                    importance=max(m.importance for m in fragments),
                    pinned=any(m.pinned for m in fragments),
                    actor=SYSTEM,
                    metadata={
                        "consolidated_from": [str(m.pk) for m in fragments],
                        "sources": [str(m.source_id) for m in fragments if m.source_id],
                    },
                ).memory
            except InjectionRefused:  # fragments stored before the guard ran everywhere: left as they are
                continue
            memories_retire(
                memories=[m for m in fragments if m.pk != summary.pk],
                status=Memory.Status.ARCHIVED,
                action=AuditEvent.Action.MEMORY_CONSOLIDATED,
                now=now,
                reason=f"merged into {summary.pk}",
                actor=SYSTEM,
            )
            made += 1
    return made


def compact_sessions(*, now: datetime, progress: Progress = _quiet, older_than_days: int = COMPACT_AFTER_DAYS) -> int:
    """The events of a conversation older than a week become one summary episode (keeping their
    sources); the short-term events are archived."""
    cutoff = now - timedelta(days=older_than_days)
    sessions = (
        Memory.objects.filter(status="active", kind="episode", category="event", occurred_at__lt=cutoff)
        .exclude(session_id="")
        .values("subject_id", "session_id")
        .annotate(n=Count("id"))
        .filter(n__gte=2)
    )
    made = 0
    for session in progress(list(sessions)):
        with transaction.atomic():
            events = list(
                Memory.objects.select_for_update(no_key=True)
                .filter(
                    subject_id=session["subject_id"],
                    session_id=session["session_id"],
                    status="active",
                    kind="episode",
                    category="event",
                    occurred_at__lt=cutoff,
                )
                .order_by("occurred_at")
            )
            text = f"Conversation {session['session_id']}: " + " / ".join(m.text for m in events)
            try:
                summary = episode_record(
                    subject=events[0].subject,
                    text=text[: settings.MEMORY_MAX_TEXT_CHARS],
                    category="summary",
                    occurred_at=events[-1].occurred_at,
                    session_id=session["session_id"],
                    importance=max(m.importance for m in events),
                    actor=SYSTEM,
                    metadata={
                        "compacted_from": [str(m.pk) for m in events],
                        "sources": [str(m.source_id) for m in events if m.source_id],
                    },
                ).memory
            except InjectionRefused:  # events stored before the guard ran everywhere: left as they are
                continue
            memories_retire(
                memories=events,
                status=Memory.Status.ARCHIVED,
                action=AuditEvent.Action.MEMORY_COMPACTED,
                now=now,
                reason=f"summarised into {summary.pk}",
                actor=SYSTEM,
            )
            made += 1
    return made


def prune_access_log(*, now: datetime, progress: Progress = _quiet) -> int:
    """Access-log rows and recall timings older than the workspace's access_log_retention_days."""
    pruned = 0
    for workspace in progress(list(Workspace.objects.all())):
        days = retention_for(workspace=workspace).access_log_retention_days
        cutoff = now - timedelta(days=days)
        with transaction.atomic():
            count, _ = AccessLog.objects.filter(workspace=workspace, created_at__lt=cutoff).delete()
            RecallStat.objects.filter(workspace=workspace, created_at__lt=cutoff).delete()
            if count:
                audit_record(
                    workspace=workspace,
                    actor=SYSTEM,
                    action=AuditEvent.Action.ACCESSLOG_PRUNED,
                    after={"rows": count, "older_than_days": days},
                )
        pruned += count
    return pruned


def _batches(items: list, size: int = 1000) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


JOBS: dict[str, Callable[..., int]] = {
    "expire": expire,
    "archive": archive_unread,
    "capacity": enforce_capacity,
    "consolidate": consolidate,
    "compact": compact_sessions,
    "prune-access": prune_access_log,
}
