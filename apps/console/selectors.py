"""Reads the console pages need beyond the domain selectors; every one starts from a workspace."""

from django.db.models import Count, OuterRef, QuerySet, Subquery

from apps.accounts.models import Subject, Workspace
from apps.memories.models import Memory

# ?sort= on a subject's page: column → field of the memory's newest matching version.
SUBJECT_SORTS = {
    "memory": "text",
    "category": "category",
    "status": "status",
    "versions": "versions",
    "updated": "updated_at",
}
DEFAULT_SUBJECT_SORT = "-updated"


def subject_sort(sort: str) -> str:
    """`sort` when it names a column (SUBJECT_SORTS, "-" first for descending), else the default."""
    return sort if sort.lstrip("-") in SUBJECT_SORTS else DEFAULT_SUBJECT_SORT


def _subject_rows(
    *, workspace: Workspace, subject: Subject, status: str = "", kind: str = "", category: str = ""
) -> QuerySet[Memory]:
    rows = Memory.objects.filter(workspace=workspace, subject=subject)
    for field, value in (("status", status), ("kind", kind), ("category", category)):
        if value:
            rows = rows.filter(**{field: value})
    return rows


def subject_memories(
    *,
    workspace: Workspace,
    subject: Subject,
    status: str = "",
    kind: str = "",
    category: str = "",
    sort: str = DEFAULT_SUBJECT_SORT,
) -> QuerySet[Memory]:
    """One row per memory (lineage): its newest version among those the filters let through, with
    `versions` = how many of its versions they let through. Sorted by `sort` (a SUBJECT_SORTS key,
    "-" first for descending); an unknown sort is the default."""
    rows = _subject_rows(workspace=workspace, subject=subject, status=status, kind=kind, category=category)
    heads = rows.order_by("lineage", "-version").distinct("lineage").values("pk")
    counts = rows.filter(lineage=OuterRef("lineage")).order_by().values("lineage").annotate(n=Count("pk")).values("n")
    sort = subject_sort(sort)
    field = ("-" if sort.startswith("-") else "") + SUBJECT_SORTS[sort.lstrip("-")]
    return (
        Memory.objects.filter(workspace=workspace, pk__in=heads)
        .annotate(versions=Subquery(counts))
        .select_related("source__agent")
        .order_by(field, "-updated_at", "-id")
    )


def attach_earlier_versions(
    *, workspace: Workspace, subject: Subject, heads: list[Memory], status: str = "", kind: str = "", category: str = ""
) -> list[Memory]:
    """Set `.earlier` on each head: its other versions the filters let through, newest first (one query)."""
    earlier: dict = {head.lineage: [] for head in heads}
    rows = (
        _subject_rows(workspace=workspace, subject=subject, status=status, kind=kind, category=category)
        .filter(lineage__in=list(earlier))
        .exclude(pk__in=[head.pk for head in heads])
        .select_related("source__agent")
        .order_by("-version")
    )
    for row in rows:
        earlier[row.lineage].append(row)
    for head in heads:
        head.earlier = earlier[head.lineage]  # type: ignore[attr-defined]  # for the template
    return heads
