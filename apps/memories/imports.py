"""Batch import: many facts and episodes written in bulk with the rules of the single writes
(`services.fact_upsert`, `services.episode_record`) — the same injection guard, redaction,
validation, conflict policy, audit events and `client_id` idempotency, from the same helpers — but
with a constant number of queries per batch instead of ~11 per item:

- each subject found or created and locked once (one query locks them all);
- the idempotency records of every `client_id` read in one query, the active profile memories of
  every key in another (locked, as `fact_upsert` locks them);
- the items then decided in order in memory, so a later item sees the earlier ones exactly as
  consecutive single writes would (a second value for a key supersedes the first; a `client_id`
  seen earlier in the batch is replayed);
- the rows written with one UPDATE of the superseded or reaffirmed memories and one INSERT each of
  sources, memories, audit events and idempotency records; one embed task for the batch's current
  memories when it commits.

A refused item (InjectionRefused, PIIRejected, ValidationError, IdempotencyConflict, a subject
id that cannot be one) writes nothing of its own; with `atomic`, any refusal writes nothing at all
(not even a subject). Injection refusals are audited either way, like those of single writes.
Texts are redacted once per distinct text in the batch (keys repeat): `redact` is deterministic.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Agent, Subject, Workspace
from apps.accounts.selectors import retention_for
from apps.accounts.services import subject_get_or_create
from apps.audit.services import Actor, audit_record, audit_record_bulk
from apps.memories import services
from apps.memories.embeddings.store import vectors_drop
from apps.memories.models import IdempotencyRecord, Memory, Source
from apps.privacy import PIIRejected, Redacted, redact
from memoryadmin import metrics

CHANNEL = "import"
# What a write may refuse with; anything else is a bug and propagates.
REFUSALS = (ValidationError, PIIRejected, services.IdempotencyConflict, services.Refused)
Outcome = services.Outcome


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


def memories_import(
    *, workspace: Workspace, items: Sequence[ImportItem], actor: Actor, agent: Agent | None = None, atomic: bool = True
) -> list[ImportOutcome]:
    """Write `items` (subjects found or created in `workspace` only). With `atomic`, one refused
    item means nothing is written: every outcome then has `result` None and the refused ones an
    `error`. Injection refusals are audited either way, like those of single writes."""
    outcomes: list[ImportOutcome] = []
    try:
        with transaction.atomic():
            batch = _Batch(workspace=workspace, actor=actor, agent=agent)
            outcomes = batch.decide(items)
            if atomic and any(outcome.error for outcome in outcomes):
                raise _RolledBack
            batch.write()
    except _RolledBack:
        outcomes = [replace(outcome, result=None) for outcome in outcomes]
        for outcome in outcomes:
            if isinstance(outcome.error, (services.InjectionRefused, services.Refused)):
                _audit_again(outcome.error.event)
    for outcome in outcomes:
        if outcome.result is not None:
            metrics.write_done(outcome.result)
    return outcomes


class _RolledBack(Exception):
    pass


def _audit_again(event: dict) -> None:
    """Record a refusal whose batch was rolled back, like a single write's refusal; a subject the
    batch had just created went with the rollback, so the event then names none."""
    subject = event["subject"]
    if subject is not None and not Subject.objects.filter(pk=subject.pk).exists():
        event = {**event, "subject": None}
    audit_record(**event)


class _Redactor:
    """`redact`, remembering its result (or refusal) for each distinct text of the batch."""

    def __init__(self) -> None:
        self.seen: dict[str, Redacted | PIIRejected] = {}

    def __call__(self, text: str) -> Redacted:
        if text not in self.seen:
            try:
                self.seen[text] = redact(text)
            except PIIRejected as rejected:
                self.seen[text] = rejected
        result = self.seen[text]
        if isinstance(result, PIIRejected):
            raise PIIRejected(result.entity_types)
        return result


@dataclass
class _Pending:
    """One item on its way: what the single write would know at each of its steps."""

    item: ImportItem
    subject: Subject | None = None
    provenance: services.Provenance | None = None
    idempotency: services._Idempotency | None = None
    record_key: tuple | None = None  # (subject id, endpoint, key digest) when it has a client_id
    error: Exception | None = None  # refused before its idempotency key is looked at
    late_error: Exception | None = None  # refused by redaction or validation, which come after
    gate: services._Gate | None = None
    cleaned: dict = field(default_factory=dict)

    # The steps fill the fields in order; an item that reached a later step has the earlier ones.
    @property
    def known_subject(self) -> Subject:
        assert self.subject is not None
        return self.subject

    @property
    def known_idempotency(self) -> services._Idempotency:
        assert self.idempotency is not None
        return self.idempotency

    @property
    def known_gate(self) -> services._Gate:
        assert self.gate is not None
        return self.gate


class _Batch:
    def __init__(self, *, workspace: Workspace, actor: Actor, agent: Agent | None) -> None:
        self.workspace, self.actor, self.agent = workspace, actor, agent
        self.redactor = _Redactor()
        self.audits: list[dict] = []  # audit_record's keyword arguments, in item order
        self.sources: list[Source] = []
        self.memories: list[Memory] = []  # new rows (some superseded later in the batch)
        self.changed: dict = {}  # existing rows superseded or reaffirmed, by pk
        self.records: list[IdempotencyRecord] = []
        self.suppressions: dict[int, list] = {}  # subject id → its don't-learn-again rules

    # --- deciding -----------------------------------------------------------------------------

    def decide(self, items: Sequence[ImportItem]) -> list[ImportOutcome]:
        subjects = self._subjects(items)
        pending = [self._checked(item, subjects) for item in items]
        known = self._known_records(subjects, pending)
        for entry in pending:
            if entry.error is None and entry.record_key not in known:
                self._clean(entry)
        same_key = self._active_profile(subjects, pending)
        self.ttl_days = retention_for(workspace=self.workspace).ttl_days
        return [self._decided(entry, known, same_key) for entry in pending]

    def _subjects(self, items: Sequence[ImportItem]) -> dict[str, Subject | Exception]:
        subjects: dict[str, Subject | Exception] = {}
        for external_id in dict.fromkeys(item.external_id for item in items):
            try:
                with transaction.atomic():
                    subjects[external_id] = subject_get_or_create(workspace=self.workspace, external_id=external_id)
            except REFUSALS as error:
                subjects[external_id] = error
        services._lock_subjects([s for s in subjects.values() if isinstance(s, Subject)])
        return subjects

    def _checked(self, item: ImportItem, subjects: dict) -> _Pending:
        """The steps of a single write before its idempotency key is looked up: the injection
        guard on the text as sent, personal data in its ids, the digest of its request."""
        entry = _Pending(item)
        subject = subjects[item.external_id]
        if isinstance(subject, Exception):
            entry.error = subject
            return entry
        entry.subject = subject
        fields = dict(item.fields)
        turn_id = fields.pop("turn_id", "")
        # Only client_id makes an item idempotent: a turn id here is provenance (imported rows often share one).
        entry.provenance = services.Provenance(
            agent=self.agent,
            session_id=fields.get("session_id", ""),
            turn_id=turn_id,
            channel=CHANNEL,
            extractor=CHANNEL,
        )
        try:
            if item.type == "fact":
                services._refuse_injection(
                    subject=subject,
                    actor=self.actor,
                    channel=CHANNEL,
                    key=fields.get("key"),
                    value=fields.get("value"),
                    excerpt="",
                )
                request, endpoint = services._fact_request(**fields), "fact"
            else:
                services._refuse_injection(
                    subject=subject, actor=self.actor, channel=CHANNEL, text=fields.get("text"), excerpt=""
                )
                request, endpoint = services._episode_request(**fields), "episode"
            services._refuse_pii_in_ids(session_id=request["session_id"], provenance=entry.provenance)
            services.refuse_if_paused(subject=subject, actor=self.actor, channel=CHANNEL)
        except REFUSALS as error:
            entry.error = error
            return entry
        entry.cleaned = request
        entry.idempotency = services._Idempotency.of(
            f"client:{item.client_id}" if item.client_id else "",
            endpoint=endpoint,
            provenance=entry.provenance,
            request=request | services._provenance_fields(entry.provenance),
        )
        if item.client_id:
            entry.record_key = (subject.pk, endpoint, services._idempotency_digest(entry.idempotency.key))
        return entry

    def _known_records(self, subjects: dict, pending: list[_Pending]) -> dict[tuple, IdempotencyRecord]:
        keys = {entry.record_key for entry in pending if entry.record_key}
        if not keys:
            return {}
        records = IdempotencyRecord.objects.filter(
            subject_id__in={key[0] for key in keys},
            agent=self.agent,
            endpoint__in={key[1] for key in keys},
            key__in={key[2] for key in keys},
        ).select_related("memory")
        return {key: record for record in records if (key := (record.subject_id, record.endpoint, record.key)) in keys}

    def _clean(self, entry: _Pending) -> None:
        """Redaction, normalization and validation, as the single write does them after its replay
        check; a refusal here is reported only if the item turns out not to be a replay."""
        entry.gate = gate = services._Gate(self.redactor)
        fields = entry.cleaned
        try:
            if entry.item.type == "fact":
                key, value, metadata = services._fact_clean(
                    gate, key=fields["key"], value=fields["value"], metadata=fields["metadata"]
                )
                entry.provenance = services._redact_provenance(entry.provenance)
                services._fact_validate(
                    key=key,
                    value=value,
                    category=fields["category"],
                    confidence=fields["confidence"],
                    importance=fields["importance"],
                )
                self._refuse_suppressed(entry, key=key)
                entry.cleaned = fields | {"key": key, "value": value, "metadata": metadata}
            else:
                text, metadata = services._episode_clean(gate, text=fields["text"], metadata=fields["metadata"])
                entry.provenance = services._redact_provenance(entry.provenance)
                services._episode_validate(text=text, category=fields["category"], importance=fields["importance"])
                self._refuse_suppressed(entry, text=text)
                entry.cleaned = fields | {"text": text, "metadata": metadata}
        except REFUSALS as error:
            entry.late_error = error

    def _refuse_suppressed(self, entry: _Pending, **cleaned: str) -> None:
        """MemorySuppressed when one of the person's don't-learn-again rules covers the item (each
        subject's rules read once per batch)."""
        subject = entry.known_subject
        if subject.pk not in self.suppressions:
            self.suppressions[subject.pk] = services.suppressions_of(subject)
        services.refuse_if_suppressed(
            subject=subject, actor=self.actor, channel=CHANNEL, suppressions=self.suppressions[subject.pk], **cleaned
        )

    def _active_profile(self, subjects: dict, pending: list[_Pending]) -> dict[tuple, list[Memory]]:
        """The active profile memories of every (subject, key) a fact of the batch writes, locked."""
        wanted = {
            (entry.known_subject.pk, entry.cleaned["key"])
            for entry in pending
            if entry.gate is not None and entry.late_error is None and entry.item.type == "fact"
        }
        same_key: dict[tuple, list[Memory]] = {key: [] for key in wanted}
        if wanted:
            rows = (
                Memory.objects.select_for_update(no_key=True)
                .filter(
                    subject_id__in={key[0] for key in wanted},
                    kind=Memory.Kind.PROFILE,
                    status=Memory.Status.ACTIVE,
                    key__in={key[1] for key in wanted},
                )
                .order_by("pk")
            )
            for memory in rows:
                if (memory.subject_id, memory.key) in same_key:
                    same_key[memory.subject_id, memory.key].append(memory)
        return same_key

    def _decided(self, entry: _Pending, known: dict, same_key: dict) -> ImportOutcome:
        item = entry.item
        if entry.error is None and entry.record_key is not None and (record := known.get(entry.record_key)):
            try:
                return ImportOutcome(item, result=services._replayed(record, entry.known_idempotency))
            except services.IdempotencyConflict as conflict:
                entry.error = conflict
        error = entry.error or entry.late_error
        if error is not None:
            if isinstance(error, (services.InjectionRefused, services.Refused)):
                self.audits.append(error.event)
            return ImportOutcome(item, error=error)
        if item.type == "fact":
            result = self._fact(entry, same_key[entry.known_subject.pk, entry.cleaned["key"]])
        else:
            result = self._episode(entry)
        if entry.record_key is not None:
            record = services._record_row(entry.known_subject, entry.known_idempotency, result)
            known[entry.record_key] = record  # the same client_id later in the batch is replayed
            self.records.append(record)
        return ImportOutcome(item, result=result)

    def _fact(self, entry: _Pending, same_key: list[Memory]) -> services.WriteResult:
        """`services._fact_write`, on the batch's view of the subject's memories with this key."""
        subject, fields, counts = entry.known_subject, entry.cleaned, dict(entry.known_gate.counts)
        current = services._fact_current(same_key, category=fields["category"], value=fields["value"])
        verdict = services._fact_verdict(
            current, category=fields["category"], value=fields["value"], confidence=fields["confidence"]
        )
        if verdict == Outcome.UNCHANGED:
            assert current is not None  # only a current value is unchanged or kept
            before = services._reaffirm(current, confidence=fields["confidence"], pinned=fields["pinned"])
            self._changed(current)
            self.audits.append(services._reaffirmed_event(subject, self.actor, current, before))
            return services.WriteResult(current, verdict, counts)
        proposed = services._fact_proposed(
            subject,
            key=fields["key"],
            value=fields["value"],
            category=fields["category"],
            confidence=fields["confidence"],
            importance=fields["importance"],
            sensitivity=fields["sensitivity"],
            expires_at=fields["expires_at"],
            session_id=fields["session_id"],
            metadata=fields["metadata"],
            redactions=counts,
            ttl_days=self.ttl_days,
        )
        if verdict == Outcome.KEPT_EXISTING:
            assert current is not None
            self.audits.append(services._declined_event(subject, self.actor, current, proposed))
            return services.WriteResult(current, verdict, counts)
        now = timezone.now()
        if current is not None:
            services._supersede(current, now=now)
            same_key.remove(current)
            self._changed(current)
        memory = self._new(
            entry,
            previous=current,
            now=now,
            pinned=fields["pinned"] or (current.pinned if current else False),
            **proposed,
        )
        same_key.append(memory)
        self.audits.append(services._written_event(subject, self.actor, memory, current))
        return services.WriteResult(memory, verdict, counts)

    def _episode(self, entry: _Pending) -> services.WriteResult:
        fields, counts = entry.cleaned, dict(entry.known_gate.counts)
        memory = self._new(
            entry,
            previous=None,
            now=timezone.now(),
            **services._episode_fields(
                entry.known_subject,
                text=fields["text"],
                category=fields["category"],
                importance=fields["importance"],
                occurred_at=fields["occurred_at"],
                session_id=fields["session_id"],
                expires_at=fields["expires_at"],
                metadata=fields["metadata"],
                redactions=counts,
                ttl_days=self.ttl_days,
            ),
        )
        self.audits.append(services._written_event(entry.known_subject, self.actor, memory, None))
        return services.WriteResult(memory, Outcome.CREATED, counts)

    def _new(self, entry: _Pending, **fields) -> Memory:
        source = services._source_row(subject=entry.known_subject, provenance=entry.provenance)
        if source is not None:
            self.sources.append(source)
        memory = services._memory_row(subject=entry.known_subject, source=source, **fields)
        self.memories.append(memory)
        return memory

    def _changed(self, memory: Memory) -> None:
        if not memory._state.adding:  # a row of the database, not one this batch will insert
            self.changed[memory.pk] = memory

    # --- writing ------------------------------------------------------------------------------

    def write(self) -> None:
        """The decided rows, in an order the constraints accept: the superseded versions leave the
        one-active-value-per-key index before their successors arrive."""
        if self.changed:
            now = timezone.now()
            for memory in self.changed.values():
                memory.updated_at = now  # what save() would set
            Memory.objects.bulk_update(
                list(self.changed.values()),
                ["confidence", "pinned", "status", "valid_to", "updated_at"],
                batch_size=500,
            )
            vectors_drop(memory_ids=[pk for pk, m in self.changed.items() if m.status == Memory.Status.SUPERSEDED])
        Source.objects.bulk_create(self.sources, batch_size=500)
        Memory.objects.bulk_create(self.memories, batch_size=500)
        for memory in self.memories:
            memory.search = None  # the stored tsvector is for SQL only; don't keep the expression around
        if self.audits:
            audit_record_bulk(self.audits)
        IdempotencyRecord.objects.bulk_create(self.records, batch_size=500)
        current = [memory.pk for memory in self.memories if memory.status == Memory.Status.ACTIVE]
        if current:
            services._enqueue_embedding(*current)
