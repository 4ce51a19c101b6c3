"""Batch import: many facts and episodes written in one transaction through the ordinary services
(`fact_upsert`, `episode_record`), so every text is redacted, every write audited and every
`client_id` made idempotent exactly as for single writes.

One transaction holds the whole batch: its memories are handed to one embed task when it commits
(see `services._enqueue_embedding`), which embeds all their texts in one embedder call. Each service
call is its own savepoint, so a refused item rolls back only itself; in atomic mode any refusal
then rolls back the batch.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.accounts.models import Agent, Subject, Workspace
from apps.accounts.services import subject_get_or_create
from apps.audit.services import Actor, audit_record
from apps.memories import services
from apps.privacy import PIIRejected

CHANNEL = "import"
# What a write may refuse with; anything else is a bug and propagates.
REFUSALS = (ValidationError, PIIRejected, services.IdempotencyConflict)


@dataclass(frozen=True)
class ImportItem:
    """One validated item: `type` "fact" or "episode", `fields` the keyword arguments of its service
    (as the API serializers produce them, `session_id` and `turn_id` included)."""

    external_id: str
    type: str
    fields: dict
    client_id: str = ""


@dataclass(frozen=True)
class ImportOutcome:
    item: ImportItem
    result: services.WriteResult | None = None  # None when refused, or rolled back with the batch
    error: Exception | None = None


def memories_import(*, workspace: Workspace, items: Sequence[ImportItem], actor: Actor, agent: Agent | None = None,
                    atomic: bool = True) -> list[ImportOutcome]:
    """Write `items` (subjects found or created in `workspace` only). With `atomic`, one refused
    item means nothing is written: every outcome then has `result` None and the refused ones an
    `error`. Injection refusals are audited either way, like those of single writes."""
    outcomes: list[ImportOutcome] = []
    try:
        with transaction.atomic():
            subjects: dict[str, Subject] = {}
            outcomes = [_write(workspace, subjects, item, actor, agent) for item in items]
            if atomic and any(outcome.error for outcome in outcomes):
                raise _RolledBack
    except _RolledBack:
        outcomes = [replace(outcome, result=None) for outcome in outcomes]
        for outcome in outcomes:  # their audit events went with the rollback
            if isinstance(outcome.error, services.InjectionRefused):
                _audit_again(outcome.error.event)
    return outcomes


class _RolledBack(Exception):
    pass


def _audit_again(event: dict) -> None:
    """Record a refusal whose first record was rolled back, like a single write's refusal; a
    subject the batch had just created went with the rollback, so the event then names none."""
    subject = event["subject"]
    if subject is not None and not Subject.objects.filter(pk=subject.pk).exists():
        event = {**event, "subject": None}
    audit_record(**event)


def _write(workspace: Workspace, subjects: dict[str, Subject], item: ImportItem, actor: Actor,
           agent: Agent | None) -> ImportOutcome:
    fields = dict(item.fields)
    turn_id = fields.pop("turn_id", "")
    provenance = services.Provenance(agent=agent, session_id=fields.get("session_id", ""), turn_id=turn_id,
                                     channel=CHANNEL, extractor=CHANNEL)
    # Only client_id makes an item idempotent: a turn id here is provenance (imported rows often share one).
    idempotency_key = f"client:{item.client_id}" if item.client_id else ""
    write = services.fact_upsert if item.type == "fact" else services.episode_record
    try:
        if item.external_id not in subjects:
            with transaction.atomic():
                subjects[item.external_id] = subject_get_or_create(workspace=workspace, external_id=item.external_id)
        result = write(subject=subjects[item.external_id], actor=actor, provenance=provenance,
                       idempotency_key=idempotency_key, **fields)
    except REFUSALS as error:
        return ImportOutcome(item, error=error)
    return ImportOutcome(item, result=result)
