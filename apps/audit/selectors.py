"""Reads of the audit trail and the recall statistics, always starting from a workspace."""

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from django.db import connection
from django.db.models import Count, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from apps.accounts.models import Workspace
from apps.audit.models import AuditEvent, RecallStat

CHANGE_ACTIONS = (
    AuditEvent.Action.MEMORY_SUPERSEDED,
    AuditEvent.Action.MEMORY_CORRECTED,
    AuditEvent.Action.MEMORY_WRITE_DECLINED,
    AuditEvent.Action.MEMORY_FORGOTTEN,
    AuditEvent.Action.SUBJECT_FORGOTTEN,
)


def _per_day(rows: Iterable[dict], days: int) -> list[tuple[date, int]]:
    counts = {row["day"]: row["n"] for row in rows}
    today = timezone.localdate()
    return [(day, counts.get(day, 0)) for day in (today - timedelta(days=n) for n in range(days - 1, -1, -1))]


def writes_per_day(*, workspace: Workspace, days: int = 30) -> list[tuple[date, int]]:
    since = timezone.now() - timedelta(days=days)
    rows = (
        AuditEvent.objects.filter(
            workspace=workspace, action__in=AuditEvent.VERSION_CREATING_ACTIONS, created_at__gte=since
        )
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("id"))
    )
    return _per_day(rows, days)


def recalls_per_day(*, workspace: Workspace, days: int = 30) -> list[tuple[date, int]]:
    since = timezone.now() - timedelta(days=days)
    rows = (
        RecallStat.objects.filter(workspace=workspace, created_at__gte=since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("id"))
    )
    return _per_day(rows, days)


def recall_latency(*, workspace: Workspace, hours: int = 24) -> dict:
    """p50/p95 of recall time (ms) and the number of recalls over the last `hours`."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY took_ms), "
            "percentile_cont(0.95) WITHIN GROUP (ORDER BY took_ms), "
            "count(*) FILTER (WHERE fallback <> '') FROM audit_recallstat "
            "WHERE workspace_id = %s AND created_at >= %s",
            [workspace.pk, timezone.now() - timedelta(hours=hours)],
        )
        count, p50, p95, fallbacks = cursor.fetchone()
    return {"count": count, "p50": p50, "p95": p95, "fallbacks": fallbacks}


def change_counts(*, workspace: Workspace) -> dict[AuditEvent.Action, int]:
    rows = (
        AuditEvent.objects.filter(workspace=workspace, action__in=CHANGE_ACTIONS)
        .values("action")
        .annotate(n=Count("id"))
    )
    counts = {row["action"]: row["n"] for row in rows}
    return {action: counts.get(action, 0) for action in CHANGE_ACTIONS}


def top_agents(*, workspace: Workspace, limit: int = 8) -> list[dict]:
    """Agents by recalls (reads) and memory writes, busiest first."""
    reads = dict(
        RecallStat.objects.filter(workspace=workspace, agent__isnull=False)
        .values_list("agent__name")
        .annotate(n=Count("id"))
    )
    writes = dict(
        AuditEvent.objects.filter(
            workspace=workspace, actor_type=AuditEvent.ActorType.AGENT, action__in=AuditEvent.VERSION_CREATING_ACTIONS
        )
        .values_list("actor_name")
        .annotate(n=Count("id"))
    )
    names = sorted(set(reads) | set(writes), key=lambda name: -(reads.get(name, 0) + writes.get(name, 0)))
    return [{"agent": name, "reads": reads.get(name, 0), "writes": writes.get(name, 0)} for name in names[:limit]]


def audit_events(
    *,
    workspace: Workspace,
    actor_type: str = "",
    action: str = "",
    subject: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[AuditEvent]:
    """The audit log, newest first, filtered by actor type, action (prefix), subject external id and time."""
    events = AuditEvent.objects.filter(workspace=workspace)
    if actor_type:
        events = events.filter(actor_type=actor_type)
    if action:
        events = events.filter(action__startswith=action)
    if subject:
        events = events.filter(subject__external_id=subject)
    if since:
        events = events.filter(created_at__gte=since)
    if until:
        events = events.filter(created_at__lt=until)
    return events.order_by("-created_at", "-id")
