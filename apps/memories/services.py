"""The only code that writes memories.

Every service: redact every text field FIRST (`apps.privacy`), then validate and normalize, apply
the conflict policy, save, and append exactly one AuditEvent — all in one transaction.
"""

import hashlib
import hmac
import json
import threading
import unicodedata
import uuid
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from functools import wraps

from django.conf import settings
from django.contrib.postgres.search import SearchVector
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Value
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.accounts.models import Agent, Subject
from apps.accounts.selectors import retention_for
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_erase_content, audit_record, audit_record_many
from apps.memories.embeddings.store import vectors_drop
from apps.memories.extraction.guard import injection_reason
from apps.memories.models import ForgetRequest, IdempotencyRecord, Ingest, Memory, Source, Suppression
from apps.memories.search import CONFIG as SEARCH_CONFIG
from apps.memories.search import search_document
from apps.memories.tasks import embed_memories_task, enqueue, forget_request_finish_task
from apps.privacy import PIIRejected, redact, redact_data
from apps.privacy.identifiers import refuse_pii_in_identifiers
from apps.privacy.labels import removed_notice
from memoryadmin import metrics

Category = Memory.Category
Status = Memory.Status


class MemoryConflict(Exception):
    """The change targets a version that is no longer current (API: 409)."""


class InjectionRefused(ValidationError):
    """Text that reads as instructions to the model, not information about the person (API: 422
    `injection`). A ValidationError naming each field, so forms show it like any other. `event` is
    the AuditEvent that `_audits_refusal` writes once the write's own transaction has rolled back."""

    def __init__(self, fields: dict[str, list[str]], *, kind: str, event: dict) -> None:
        super().__init__(fields, code="injection")
        self.kind = kind
        self.event = event


class Refused(Exception):
    """A write the person's own controls refuse (API: 409 with `code`). `event` is the AuditEvent
    that `_audits_refusal` writes once the write's own transaction has rolled back."""

    code = "refused"

    def __init__(self, message: str, *, event: dict) -> None:
        super().__init__(message)
        self.event = event


class MemoryPaused(Refused):
    """The person paused memory in the portal: agents can recall but not write (API: 409 `memory_paused`)."""

    code = "memory_paused"


class MemorySuppressed(Refused):
    """The person deleted this and asked not to learn it again (API: 409 `memory_suppressed`)."""

    code = "memory_suppressed"


class IdempotencyConflict(Exception):
    """The idempotency key was used before, by the same agent on the same endpoint, for another
    request (API: 409)."""


class Outcome(StrEnum):
    CREATED = "created"  # a new memory
    SUPERSEDED = "superseded"  # a new version replaced the current one
    UNCHANGED = "unchanged"  # same value written again: no new version
    KEPT_EXISTING = "kept_existing"  # a less confident preference/goal lost against the current one
    CORRECTED = "corrected"  # an explicit correction made a new version
    REPLAYED = "replayed"  # the same idempotency key again: the first result, nothing written


@dataclass(frozen=True)
class Provenance:
    """Where a write came from; stored as a Source row (the excerpt redacted like everything else)."""

    agent: Agent | None = None
    session_id: str = ""
    turn_id: str = ""
    channel: str = "api"
    excerpt: str = ""
    extractor: str = "direct"
    extractor_version: str = ""
    actor_type: str = ""  # AuditEvent.ActorType; "agent" when `agent` is set and this is empty
    actor_name: str = ""  # who corrected it (a person or an operator); redacted before it is stored


@dataclass(frozen=True)
class WriteResult:
    memory: Memory
    outcome: Outcome
    redactions: dict[str, int] = field(default_factory=dict)  # entity type → count removed by this write
    first_outcome: Outcome | None = None  # for REPLAYED: the outcome of the original write


class _Gate:
    """Redacts each field of one write and adds up what was removed."""

    def __init__(self, redactor=None) -> None:
        self.counts: Counter[str] = Counter()
        self.redactor = redactor  # `redact`, or a stand-in that remembers its results (a batch)

    def text(self, value: str) -> str:
        result = (self.redactor or redact)(value)
        self.counts.update(result.counts)
        return result.text

    def data(self, value: dict) -> dict:
        redacted, counts = redact_data(value)
        self.counts.update(counts)
        return redacted


# --- the injection guard ------------------------------------------------------------------------

_EXCERPT_CHARS = 200


def _redacted_excerpt(text: str) -> str:
    try:
        return redact(text).text[:_EXCERPT_CHARS]
    except PIIRejected:  # a type the policy refuses outright: the audit keeps field and kind only
        return ""


def _refuse_injection(
    *, subject: Subject, actor: Actor, channel: str, memory: Memory | None = None, **texts: str | None
) -> None:
    """Raise InjectionRefused naming every field (keyword) whose raw text the guard flags. Runs on
    the text as sent (before redaction and whitespace folding: a role marker needs its line start)."""
    found: dict[str, tuple[str, str]] = {}
    for index, (name, text) in enumerate(texts.items()):
        if not text or text in list(texts.values())[:index]:  # an excerpt that is the value itself
            continue
        candidates = (text, text.replace("_", " ").replace("-", " ")) if name == "key" else (text,)
        if kind := next(filter(None, map(injection_reason, candidates)), ""):
            found[name] = (kind, text)
    if not found:
        return
    message = _("This reads as instructions to the assistant, not as something about the person, so it was not saved.")
    field, (kind, text) = next(iter(found.items()))
    if channel != "turns":  # a posted turn counts once, however many of its proposals (apps.memories.ingest)
        metrics.INJECTION_REFUSALS.labels(channel).inc()
    event = dict(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_INJECTION_REFUSED,
        subject=subject,
        memory=memory,
        after={
            "field": field,
            "fields": list(found),
            "kind": kind,
            "channel": channel,
            "excerpt": _redacted_excerpt(text),
        },
        reason=f"Refused: the {field} reads as instructions to the model ({kind}).",
    )
    raise InjectionRefused({name: [message] for name in found}, kind=kind, event=event)


def refusals_audited(service):
    """Outside the service's transaction (put it above `transaction.atomic`): a refused write (an
    injection, the person's own controls) is audited although the write is not."""

    @wraps(service)
    def wrapper(**kwargs):
        try:
            return service(**kwargs)
        except (InjectionRefused, Refused) as refused:
            audit_record(**refused.event)
            raise

    return wrapper


def _audits_refusal(service):
    """`refusals_audited`, and the outcome of a write counted (metrics) once it is done."""
    audited = refusals_audited(service)

    @wraps(service)
    def wrapper(**kwargs):
        result = audited(**kwargs)
        metrics.write_done(result)
        return result

    return wrapper


# --- normalization and validation -------------------------------------------------------------


def normalize_key(key: str) -> str:
    """`Favourite Food` / `favourite-food` → `favourite_food`; Chinese keys stay Chinese."""
    return slugify(unicodedata.normalize("NFKC", key), allow_unicode=True).replace("-", "_")[:128]


def normalize_value(value: str) -> str:
    """Comparison form: width-folded, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", value).casefold().split())


def _clean_text(value: str) -> str:
    return " ".join(unicodedata.normalize("NFC", value).split())


def _validate(errors: dict[str, str], *, confidence: float | None = None, importance: float | None = None) -> None:
    for name, number in (("confidence", confidence), ("importance", importance)):
        if number is not None and not 0.0 <= number <= 1.0:
            errors[name] = _("%(field)s must be between 0 and 1.") % {"field": name.capitalize()}
    if errors:
        raise ValidationError(errors)


def _require_text(errors: dict[str, str], name: str, value: str, limit: int) -> None:
    if not value:
        errors[name] = _("This field may not be empty.")
    elif len(value) > limit:
        errors[name] = _("Ensure this field has no more than %(limit)d characters (it has %(length)d).") % {
            "limit": limit,
            "length": len(value),
        }


def _fact_text(key: str, value: str) -> str:
    return f"{key.replace('_', ' ')}: {value}"


def snapshot(memory: Memory) -> dict:
    """What the audit trail records of a memory version (all fields already redacted)."""
    return {
        "kind": memory.kind,
        "category": memory.category,
        "key": memory.key,
        "value": memory.value,
        "text": memory.text,
        "confidence": memory.confidence,
        "importance": memory.importance,
        "pinned": memory.pinned,
        "status": memory.status,
        "version": memory.version,
    }


def _provenance_fields(provenance: Provenance | None) -> dict:
    """What of the provenance belongs to the request (its agent scopes the key instead)."""
    if provenance is None:
        return {}
    return {"source_session_id": provenance.session_id, "turn_id": provenance.turn_id, "excerpt": provenance.excerpt}


def _redact_provenance(provenance: Provenance | None) -> Provenance | None:
    """The excerpt is redacted like the memory; its findings count for the source, not the memory.
    The actor's name (a username may be an e-mail address) too; one the PII policy refuses is left out."""
    if provenance is None:
        return None
    try:
        actor_name = redact(provenance.actor_name).text
    except PIIRejected:
        actor_name = ""
    return replace(provenance, excerpt=redact(provenance.excerpt).text, actor_name=actor_name)


_CHANNEL_OF_ACTOR: dict[str, str] = {AuditEvent.ActorType.END_USER: "portal", AuditEvent.ActorType.OPERATOR: "console"}


def _actor_provenance(actor: Actor, subject: Subject, *, extractor: str) -> Provenance | None:
    """The source of a write that brought none: an agent's write stays the agent's (no turn, no
    excerpt); a person's correction comes from the portal, an operator's from the console."""
    if actor.type == AuditEvent.ActorType.AGENT:
        agent = Agent.objects.filter(pk=actor.id, workspace_id=subject.workspace_id).first() if actor.id else None
        return Provenance(agent=agent, extractor=extractor, actor_type=actor.type) if agent else None
    return Provenance(
        channel=_CHANNEL_OF_ACTOR.get(actor.type, "system"),
        extractor=extractor,
        actor_type=actor.type,
        actor_name=actor.name,
    )


def _refuse_pii_in_ids(*, session_id: str, provenance: Provenance | None) -> None:
    """Session and turn ids are opaque handles, stored as given: personal data in them is refused."""
    source = provenance or Provenance()
    refuse_pii_in_identifiers(session_id=session_id, turn_id=source.turn_id)
    if source.session_id != session_id:
        refuse_pii_in_identifiers(session_id=source.session_id)


def _source_create(*, subject: Subject, provenance: Provenance | None) -> Source | None:
    """`provenance` must have passed through `_redact_provenance`."""
    source = _source_row(subject=subject, provenance=provenance)
    if source is not None:
        source.save(force_insert=True)
    return source


def _source_row(*, subject: Subject, provenance: Provenance | None) -> Source | None:
    """The unsaved Source of a write (a batch saves many at once)."""
    if provenance is None:
        return None
    return Source(
        workspace_id=subject.workspace_id,
        subject=subject,
        agent=provenance.agent,
        session_id=provenance.session_id,
        turn_id=provenance.turn_id,
        channel=provenance.channel,
        actor_type=provenance.actor_type or (AuditEvent.ActorType.AGENT if provenance.agent else ""),
        actor_name=provenance.actor_name,
        excerpt=provenance.excerpt,
        extractor=provenance.extractor,
        extractor_version=provenance.extractor_version,
    )


# Memories written by this thread and not yet handed to the embed task. Every write registers
# the same after-commit publisher; the first to run after a commit takes them all, so the writes of
# one transaction (a turn's) make one task. Ids of rolled-back writes may ride along with a later
# commit: the task ignores memories that do not exist.
_to_embed = threading.local()


def _enqueue_embedding(*memory_ids: uuid.UUID) -> None:
    _to_embed.__dict__.setdefault("ids", []).extend(map(str, memory_ids))
    transaction.on_commit(_publish_embeddings, robust=True)


def _publish_embeddings() -> None:
    ids, _to_embed.ids = getattr(_to_embed, "ids", []), []
    if ids:
        # A broker that is down must not turn a committed write into an error: enqueue() logs one
        # line and the embed_missing_task sweep finds memories without vectors later.
        enqueue(embed_memories_task, ids)


def _new_memory(*, subject: Subject, previous: Memory | None = None, **fields) -> Memory:
    """A fresh row: version 1 of a new lineage, or the next version after `previous`."""
    now = timezone.now()
    if previous is not None:
        _supersede(previous, now=now)
        previous.save(update_fields=["status", "valid_to", "updated_at"])
        vectors_drop(memory_ids=[previous.pk])
    memory = _memory_row(subject=subject, previous=previous, now=now, **fields)
    memory.save(force_insert=True)
    memory.search = None  # the stored tsvector is for SQL only; don't keep the expression around
    _enqueue_embedding(memory.id)
    return memory


def _supersede(previous: Memory, *, now: datetime) -> None:
    """Mark `previous` superseded by a newer version (the caller saves it and drops its vectors)."""
    previous.status = Status.SUPERSEDED
    previous.valid_to = now


def _memory_row(*, subject: Subject, previous: Memory | None, now: datetime, **fields) -> Memory:
    """The unsaved row of `_new_memory` (a batch saves many at once): version 1 of a new lineage,
    or the next version after `previous`."""
    memory_id = uuid.uuid4()
    if previous is not None:
        fields.update(lineage=previous.lineage, version=previous.version + 1, supersedes=previous)
    else:
        fields.update(lineage=memory_id, version=1)
    return Memory(
        id=memory_id,
        workspace_id=subject.workspace_id,
        subject=subject,
        valid_from=now,
        search=SearchVector(Value(search_document(fields["text"])), config=SEARCH_CONFIG),
        **fields,
    )


def _default_expiry(
    subject: Subject, category: str, expires_at: datetime | None, *, ttl_days: dict[str, int] | None = None
) -> datetime | None:
    """An explicit expiry wins; otherwise the workspace's retention TTL for the category, if any
    (`ttl_days`: the workspace's, when the caller has read them already)."""
    if expires_at is not None:
        return expires_at
    if ttl_days is None:
        ttl_days = retention_for(workspace=subject.workspace).ttl_days
    days = ttl_days.get(category)
    return timezone.now() + timedelta(days=days) if days else None


def _lock_subject(subject: Subject) -> None:
    """Serialize writes per subject: the conflict policy and idempotency read-then-write safely.
    FOR NO KEY UPDATE: rows that merely reference the subject (a turn being accepted) don't wait.
    The same query reads the person's controls as they are now (paused? any don't-learn rules?)."""
    _lock_subjects([subject])


def _lock_subjects(subjects: list[Subject]) -> None:
    """`_lock_subject` for many in one query, in id order (two batches cannot deadlock). Sets
    `memory_paused_at` and `has_suppressions` on each subject from the locked rows."""
    rows = (
        Subject.objects.select_for_update(no_key=True)
        .filter(pk__in=[s.pk for s in subjects])
        .order_by("pk")
        .values_list("pk", "memory_paused_at", Exists(Suppression.objects.filter(subject=OuterRef("pk"))))
    )
    controls = {pk: (paused_at, suppressed) for pk, paused_at, suppressed in rows}
    for subject in subjects:
        subject.memory_paused_at, subject.has_suppressions = controls.get(subject.pk, (None, False))  # type: ignore[attr-defined]


def _idempotency_digest(idempotency_key: str) -> str:
    # Keys may hold anything a client sends (even personal data): only a digest is stored.
    return hashlib.sha256(idempotency_key.encode()).hexdigest()


@dataclass(frozen=True)
class _Idempotency:
    """One write's idempotency key, scoped to its agent and endpoint, with a digest of its request."""

    key: str
    agent: Agent | None
    endpoint: str
    request_digest: str

    @classmethod
    def of(cls, key: str, *, endpoint: str, provenance: Provenance | None, request: dict) -> "_Idempotency":
        # Keyed with SECRET_KEY: a plain hash of a short value (a phone number) could be guessed back.
        body = json.dumps(request, sort_keys=True, default=str, ensure_ascii=False).encode()
        digest = hmac.new(settings.SECRET_KEY.encode(), body, hashlib.sha256).hexdigest()
        return cls(key, provenance.agent if provenance else None, endpoint, digest)

    def records(self, subject: Subject) -> QuerySet[IdempotencyRecord]:
        return IdempotencyRecord.objects.filter(
            subject=subject, agent=self.agent, endpoint=self.endpoint, key=_idempotency_digest(self.key)
        )


def _replay(subject: Subject, idempotency: _Idempotency) -> WriteResult | None:
    if not idempotency.key:
        return None
    record = idempotency.records(subject).select_related("memory").first()
    return _replayed(record, idempotency) if record is not None else None


def _replayed(record: IdempotencyRecord, idempotency: _Idempotency) -> WriteResult:
    """The first result of the write `record` remembers, or IdempotencyConflict for another body."""
    if record.request_digest and record.request_digest != idempotency.request_digest:
        raise IdempotencyConflict(
            "This Idempotency-Key (or turn id) was already used for a different request by this agent: "
            "a retry must repeat the same body; use a new key for a new write."
        )
    return WriteResult(record.memory, Outcome.REPLAYED, first_outcome=Outcome(record.outcome))


def _idempotency_store(subject: Subject, idempotency: _Idempotency, result: WriteResult) -> WriteResult:
    """Store the idempotency record of a write made with a key, so a retry replays `result`."""
    if idempotency.key:
        _record_row(subject, idempotency, result).save(force_insert=True)
    return result


def _record_row(subject: Subject, idempotency: _Idempotency, result: WriteResult) -> IdempotencyRecord:
    """The unsaved record of a write with an idempotency key (a batch saves many at once)."""
    return IdempotencyRecord(
        workspace_id=subject.workspace_id,
        subject=subject,
        agent=idempotency.agent,
        endpoint=idempotency.endpoint,
        key=_idempotency_digest(idempotency.key),
        request_digest=idempotency.request_digest,
        memory=result.memory,
        outcome=result.outcome,
    )


# --- writes -----------------------------------------------------------------------------------


@_audits_refusal
@transaction.atomic
def fact_upsert(
    *,
    subject: Subject,
    key: str,
    value: str,
    category: str,
    actor: Actor,
    confidence: float = 1.0,
    importance: float = 0.5,
    pinned: bool = False,
    sensitivity: str = Memory.Sensitivity.NORMAL,
    expires_at: datetime | None = None,
    session_id: str = "",
    metadata: dict | None = None,
    provenance: Provenance | None = None,
    idempotency_key: str = "",
) -> WriteResult:
    """Write a profile fact, applying the conflict policy of its category.

    preference/goal: a newer value supersedes the current one unless it is less confident;
    fact: the newer value always becomes current; constraint: values accumulate.
    Writing the current value again makes no new version (keeps the higher confidence).
    With an `idempotency_key` seen before for this subject, the first result comes back and
    nothing is written (nor audited). Text that reads as instructions to the model is refused.
    """
    _refuse_injection(
        subject=subject,
        actor=actor,
        channel=provenance.channel if provenance else "direct",
        key=key,
        value=value,
        excerpt=provenance.excerpt if provenance else "",
    )
    if provenance is None and actor.type == AuditEvent.ActorType.AGENT:
        provenance = _actor_provenance(actor, subject, extractor="direct")
    _refuse_pii_in_ids(session_id=session_id, provenance=provenance)
    _lock_subject(subject)
    refuse_if_paused(subject=subject, actor=actor, channel=provenance.channel if provenance else "direct")
    request = _fact_request(
        key=key,
        value=value,
        category=category,
        confidence=confidence,
        importance=importance,
        pinned=pinned,
        sensitivity=sensitivity,
        expires_at=expires_at,
        session_id=session_id,
        metadata=metadata,
    )
    idempotency = _Idempotency.of(
        idempotency_key, endpoint="fact", provenance=provenance, request=request | _provenance_fields(provenance)
    )
    if replayed := _replay(subject, idempotency):
        return replayed
    result = _fact_write(subject=subject, actor=actor, provenance=provenance, **request)
    return _idempotency_store(subject, idempotency, result)


# The conflict policy and the rows of a fact or an episode, shared by the single writes above and
# below and by the batch import (`apps.memories.imports`), which applies them to many items at once.


def _fact_request(
    *,
    key: str,
    value: str,
    category: str,
    confidence: float = 1.0,
    importance: float = 0.5,
    pinned: bool = False,
    sensitivity: str = Memory.Sensitivity.NORMAL,
    expires_at: datetime | None = None,
    session_id: str = "",
    metadata: dict | None = None,
) -> dict:
    """A fact write's fields with `fact_upsert`'s defaults: what its idempotency digest covers."""
    return dict(
        key=key,
        value=value,
        category=category,
        confidence=confidence,
        importance=importance,
        pinned=pinned,
        sensitivity=sensitivity,
        expires_at=expires_at,
        session_id=session_id,
        metadata=metadata,
    )


def _episode_request(
    *,
    text: str,
    category: str = Category.EVENT,
    occurred_at: datetime | None = None,
    session_id: str = "",
    importance: float = 0.5,
    expires_at: datetime | None = None,
    metadata: dict | None = None,
) -> dict:
    """An episode write's fields with `episode_record`'s defaults: what its idempotency digest covers."""
    return dict(
        text=text,
        category=category,
        occurred_at=occurred_at,
        session_id=session_id,
        importance=importance,
        expires_at=expires_at,
        metadata=metadata,
    )


def _fact_clean(gate: _Gate, *, key: str, value: str, metadata: dict | None) -> tuple[str, str, dict]:
    """A fact's key, value and metadata redacted (through `gate`) and normalized."""
    return normalize_key(gate.text(key)), _clean_text(gate.text(value)), gate.data(metadata or {})


def _fact_validate(*, key: str, value: str, category: str, confidence: float, importance: float) -> None:
    """Raise ValidationError naming each field of a cleaned fact that cannot be written."""
    errors: dict[str, str] = {}
    if not key:
        errors["key"] = _("The key must contain at least one letter or digit.")
    _require_text(errors, "value", value, settings.MEMORY_MAX_VALUE_CHARS)
    if category not in Memory.PROFILE_CATEGORIES:
        errors["category"] = _("Profile facts take one of: %(choices)s.") % {
            "choices": ", ".join(Memory.PROFILE_CATEGORIES)
        }
    _validate(errors, confidence=confidence, importance=importance)


def _fact_current(same_key: list[Memory], *, category: str, value: str) -> Memory | None:
    """What a new value is weighed against, among the subject's active profile memories with its
    key: for a constraint, one with the same value (constraints accumulate); else the current one."""
    if category == Category.CONSTRAINT:
        constraints = [m for m in same_key if m.category == Category.CONSTRAINT]
        same = next((m for m in constraints if normalize_value(m.value) == normalize_value(value)), None)
        if same is None and constraints:  # another value under this key: both stay active
            metrics.CONFLICTS.labels("kept").inc()
        return same
    return next((m for m in same_key if m.category != Category.CONSTRAINT), None)


def _fact_verdict(current: Memory | None, *, category: str, value: str, confidence: float) -> Outcome:
    """The conflict policy: the same value again changes nothing; a less confident preference or
    goal loses against the current one; otherwise the new value is a new memory or version."""
    if current is None:
        return Outcome.CREATED
    if normalize_value(current.value) == normalize_value(value):
        return Outcome.UNCHANGED
    if category in (Category.PREFERENCE, Category.GOAL) and confidence < current.confidence:
        metrics.CONFLICTS.labels("declined").inc()
        return Outcome.KEPT_EXISTING
    metrics.CONFLICTS.labels("superseded").inc()
    return Outcome.SUPERSEDED


def _reaffirm(current: Memory, *, confidence: float, pinned: bool) -> dict:
    """The current value written again: keep the higher confidence and any pin (the caller saves).
    Returns the snapshot from before."""
    before = snapshot(current)
    current.confidence = max(current.confidence, confidence)
    current.pinned = current.pinned or pinned
    return before


def _fact_proposed(
    subject: Subject,
    *,
    key: str,
    value: str,
    category: str,
    confidence: float,
    importance: float,
    sensitivity: str,
    expires_at: datetime | None,
    session_id: str,
    metadata: dict,
    redactions: dict[str, int],
    ttl_days: dict[str, int] | None = None,
) -> dict:
    """The fields of a new fact row (`key`, `value` and `metadata` cleaned by `_fact_clean`)."""
    return {
        "kind": Memory.Kind.PROFILE,
        "category": category,
        "key": key,
        "value": value,
        "text": _fact_text(key, value),
        "confidence": confidence,
        "importance": importance,
        "sensitivity": sensitivity,
        "expires_at": _default_expiry(subject, category, expires_at, ttl_days=ttl_days),
        "session_id": session_id,
        "metadata": metadata,
        "redactions": redactions,
    }


def _reaffirmed_event(subject: Subject, actor: Actor, current: Memory, before: dict) -> dict:
    return dict(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_REAFFIRMED,
        subject=subject,
        memory=current,
        before=before,
        after=snapshot(current),
    )


def _declined_event(subject: Subject, actor: Actor, current: Memory, proposed: dict) -> dict:
    return dict(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_WRITE_DECLINED,
        subject=subject,
        memory=current,
        before=snapshot(current),
        after={k: proposed[k] for k in ("category", "key", "value", "text", "confidence")},
        reason="A less confident value does not replace the current one.",
    )


def _written_event(subject: Subject, actor: Actor, memory: Memory, previous: Memory | None) -> dict:
    """`previous` (already marked superseded) is the version `memory` replaced, if any."""
    return dict(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_SUPERSEDED if previous else AuditEvent.Action.MEMORY_CREATED,
        subject=subject,
        memory=memory,
        before=snapshot(previous) if previous else None,
        after=snapshot(memory),
    )


def _fact_write(
    *,
    subject: Subject,
    key: str,
    value: str,
    category: str,
    actor: Actor,
    confidence: float,
    importance: float,
    pinned: bool,
    sensitivity: str,
    expires_at: datetime | None,
    session_id: str,
    metadata: dict | None,
    provenance: Provenance | None,
) -> WriteResult:
    gate = _Gate()
    key, value, metadata = _fact_clean(gate, key=key, value=value, metadata=metadata)
    provenance = _redact_provenance(provenance)
    _fact_validate(key=key, value=value, category=category, confidence=confidence, importance=importance)
    refuse_if_suppressed(
        subject=subject,
        actor=actor,
        channel=provenance.channel if provenance else "direct",
        suppressions=suppressions_of(subject),
        key=key,
    )

    same_key = (
        Memory.objects.select_for_update(no_key=True)
        .filter(subject=subject, kind=Memory.Kind.PROFILE, key=key, status=Status.ACTIVE)
        .order_by("pk")
    )
    current = _fact_current(list(same_key), category=category, value=value)
    verdict = _fact_verdict(current, category=category, value=value, confidence=confidence)

    if verdict == Outcome.UNCHANGED:
        assert current is not None  # only a current value is unchanged or kept
        before = _reaffirm(current, confidence=confidence, pinned=pinned)
        current.save(update_fields=["confidence", "pinned", "updated_at"])
        audit_record(**_reaffirmed_event(subject, actor, current, before))
        return WriteResult(current, Outcome.UNCHANGED, dict(gate.counts))

    proposed = _fact_proposed(
        subject,
        key=key,
        value=value,
        category=category,
        confidence=confidence,
        importance=importance,
        sensitivity=sensitivity,
        expires_at=expires_at,
        session_id=session_id,
        metadata=metadata,
        redactions=dict(gate.counts),
    )
    if verdict == Outcome.KEPT_EXISTING:
        assert current is not None
        audit_record(**_declined_event(subject, actor, current, proposed))
        return WriteResult(current, Outcome.KEPT_EXISTING, dict(gate.counts))

    source = _source_create(subject=subject, provenance=provenance)
    memory = _new_memory(
        subject=subject,
        previous=current,
        source=source,
        pinned=pinned or (current.pinned if current else False),
        **proposed,
    )
    audit_record(**_written_event(subject, actor, memory, current))
    return WriteResult(memory, verdict, dict(gate.counts))


def _episode_clean(gate: _Gate, *, text: str, metadata: dict | None) -> tuple[str, dict]:
    """An episode's text and metadata redacted (through `gate`) and normalized."""
    return _clean_text(gate.text(text)), gate.data(metadata or {})


def _episode_validate(*, text: str, category: str, importance: float) -> None:
    """Raise ValidationError naming each field of a cleaned episode that cannot be written."""
    errors: dict[str, str] = {}
    _require_text(errors, "text", text, settings.MEMORY_MAX_TEXT_CHARS)
    if category not in Memory.EPISODE_CATEGORIES:
        errors["category"] = _("Episodes take one of: %(choices)s.") % {"choices": ", ".join(Memory.EPISODE_CATEGORIES)}
    _validate(errors, importance=importance)


def _episode_fields(
    subject: Subject,
    *,
    text: str,
    category: str,
    importance: float,
    occurred_at: datetime | None,
    session_id: str,
    expires_at: datetime | None,
    metadata: dict,
    redactions: dict[str, int],
    ttl_days: dict[str, int] | None = None,
) -> dict:
    """The fields of a new episode row (`text` and `metadata` cleaned by `_episode_clean`)."""
    return dict(
        kind=Memory.Kind.EPISODE,
        category=category,
        text=text,
        importance=importance,
        occurred_at=occurred_at or timezone.now(),
        session_id=session_id,
        expires_at=_default_expiry(subject, category, expires_at, ttl_days=ttl_days),
        metadata=metadata,
        redactions=redactions,
    )


@_audits_refusal
@transaction.atomic
def episode_record(
    *,
    subject: Subject,
    text: str,
    actor: Actor,
    category: str = Category.EVENT,
    occurred_at: datetime | None = None,
    session_id: str = "",
    importance: float = 0.5,
    expires_at: datetime | None = None,
    metadata: dict | None = None,
    provenance: Provenance | None = None,
    idempotency_key: str = "",
) -> WriteResult:
    """Record something that happened (an event, or a summary of a session)."""
    _refuse_injection(
        subject=subject,
        actor=actor,
        channel=provenance.channel if provenance else "direct",
        text=text,
        excerpt=provenance.excerpt if provenance else "",
    )
    if provenance is None and actor.type == AuditEvent.ActorType.AGENT:
        provenance = _actor_provenance(actor, subject, extractor="direct")
    _refuse_pii_in_ids(session_id=session_id, provenance=provenance)
    _lock_subject(subject)
    refuse_if_paused(subject=subject, actor=actor, channel=provenance.channel if provenance else "direct")
    request = _episode_request(
        text=text,
        category=category,
        occurred_at=occurred_at,
        session_id=session_id,
        importance=importance,
        expires_at=expires_at,
        metadata=metadata,
    )
    idempotency = _Idempotency.of(
        idempotency_key, endpoint="episode", provenance=provenance, request=request | _provenance_fields(provenance)
    )
    if replayed := _replay(subject, idempotency):
        return replayed
    gate = _Gate()
    text, metadata = _episode_clean(gate, text=text, metadata=metadata)
    provenance = _redact_provenance(provenance)
    _episode_validate(text=text, category=category, importance=importance)
    refuse_if_suppressed(
        subject=subject,
        actor=actor,
        channel=provenance.channel if provenance else "direct",
        suppressions=suppressions_of(subject),
        text=text,
    )

    source = _source_create(subject=subject, provenance=provenance)
    memory = _new_memory(
        subject=subject,
        source=source,
        **_episode_fields(
            subject,
            text=text,
            category=category,
            importance=importance,
            occurred_at=occurred_at,
            session_id=session_id,
            expires_at=expires_at,
            metadata=metadata,
            redactions=dict(gate.counts),
        ),
    )
    audit_record(**_written_event(subject, actor, memory, None))
    return _idempotency_store(subject, idempotency, WriteResult(memory, Outcome.CREATED, dict(gate.counts)))


def _lock_current(memory: Memory) -> Memory:
    locked = Memory.objects.select_for_update(no_key=True).select_related("subject__workspace").get(pk=memory.pk)
    if locked.status != Status.ACTIVE:
        raise MemoryConflict(
            f"Version {locked.version} of this memory is {locked.status}; only the current version can be changed."
        )
    return locked


def _correction_source(current: Memory, actor: Actor) -> Source | None:
    """Who a correction is credited to. An agent correcting what it wrote itself keeps that source
    (its conversation); anyone else's correction is a source of its own, with no excerpt of the
    conversation it replaces."""
    source = current.source
    if actor.type == AuditEvent.ActorType.AGENT and source is not None and str(source.agent_id) == actor.id:
        return source
    provenance = _actor_provenance(actor, current.subject, extractor="correction")
    return _source_create(subject=current.subject, provenance=_redact_provenance(provenance))


@_audits_refusal
@transaction.atomic
def memory_correct(
    *,
    memory: Memory,
    actor: Actor,
    content: str | None = None,
    confidence: float | None = None,
    importance: float | None = None,
    reason: str = "",
) -> WriteResult:
    """Correct the current version: a new version row becomes active, the old one is superseded.

    `content` is what the memory holds (`Memory.content`): a profile fact's value (its text follows
    from key and value) or an episode's text; errors about it name that column. A person's (portal)
    or an operator's (console) correction is credited to them — a Source of its own, no excerpt —
    with confidence 1.0 unless one is given; an agent's keeps its confidence."""
    field = memory.content_field
    _refuse_injection(subject=memory.subject, actor=actor, channel="correction", memory=memory, **{field: content})
    gate = _Gate()
    content = _clean_text(gate.text(content)) if content is not None else None
    current = _lock_current(memory)
    refuse_if_paused(subject=current.subject, actor=actor, channel="correction")

    errors: dict[str, str] = {}
    is_profile = current.kind == Memory.Kind.PROFILE
    if content is None:
        content = current.content
    else:
        limit = settings.MEMORY_MAX_VALUE_CHARS if is_profile else settings.MEMORY_MAX_TEXT_CHARS
        _require_text(errors, field, content, limit)
    _validate(errors, confidence=confidence, importance=importance)

    changes = {
        "value": content if is_profile else current.value,
        "text": _fact_text(current.key, content) if is_profile else content,
        "confidence": current.confidence if confidence is None else confidence,
        "importance": current.importance if importance is None else importance,
    }
    if all(getattr(current, name) == changed for name, changed in changes.items()):
        if gate.counts:  # e.g. the real address typed over its <EMAIL_ADDRESS> placeholder
            raise ValidationError(
                {
                    "non_field_errors": "{} {}".format(
                        removed_notice(dict(gate.counts)),
                        _(
                            "Nothing changed: personal data is removed before saving, so the correction is what is "
                            "already kept."
                        ),
                    )
                }
            )
        raise ValidationError({"non_field_errors": _("The correction is the same as the current version.")})

    if actor.type in _CHANNEL_OF_ACTOR and confidence is None:
        changes["confidence"] = 1.0  # the person (or an operator) said so: no guess left
    before = snapshot(current)
    corrected = _new_memory(
        subject=current.subject,
        previous=current,
        kind=current.kind,
        category=current.category,
        key=current.key,
        pinned=current.pinned,
        sensitivity=current.sensitivity,
        expires_at=current.expires_at,
        session_id=current.session_id,
        occurred_at=current.occurred_at,
        source=_correction_source(current, actor),
        metadata=current.metadata,
        redactions=dict(gate.counts),
        **changes,
    )
    audit_record(
        workspace=current.subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_CORRECTED,
        subject=current.subject,
        memory=corrected,
        before=before,
        after=snapshot(corrected),
        reason=reason,
    )
    return WriteResult(corrected, Outcome.CORRECTED, dict(gate.counts))


def _set_pinned(*, memory: Memory, actor: Actor, pinned: bool) -> Memory:
    current = _lock_current(memory)
    before = snapshot(current)
    current.pinned = pinned
    current.save(update_fields=["pinned", "updated_at"])
    audit_record(
        workspace=current.subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_PINNED if pinned else AuditEvent.Action.MEMORY_UNPINNED,
        subject=current.subject,
        memory=current,
        before=before,
        after=snapshot(current),
    )
    return current


@transaction.atomic
def memory_pin(*, memory: Memory, actor: Actor) -> Memory:
    """Pinned memories are always considered in recall and never decay."""
    return _set_pinned(memory=memory, actor=actor, pinned=True)


@transaction.atomic
def memory_unpin(*, memory: Memory, actor: Actor) -> Memory:
    return _set_pinned(memory=memory, actor=actor, pinned=False)


@transaction.atomic
def memories_retire(
    *,
    memories: list[Memory],
    status: str,
    action: AuditEvent.Action,
    reason: str,
    actor: Actor,
    now: datetime | None = None,
) -> int:
    """Active memories leave recall (the lifecycle jobs expire, archive, consolidate, compact): the
    new `status` from `now` on, no vectors, one `action` audit event each. Returns how many were
    still active."""
    now = now or timezone.now()
    ids = [m.pk for m in memories]
    changed = Memory.objects.filter(pk__in=ids, status=Status.ACTIVE).update(
        status=status, valid_to=now, updated_at=now
    )
    vectors_drop(memory_ids=ids)
    audit_record_many(
        actor=actor,
        action=action,
        memories=memories,
        before={"status": "active"},
        after={"status": status},
        reason=reason,
    )
    return changed


def _erase(memories: QuerySet[Memory]) -> int:
    """Forget for real: content leaves every table. A tombstone keeps only id, lineage, version,
    kind, category, status and times — no key, session, redaction types, source or confidence.
    Sources left without a memory are deleted, and so are the turns they came from (with what the
    audit trail said about them) and the idempotency records of the memories."""
    now = timezone.now()
    ids = list(memories.select_for_update().values_list("pk", flat=True))
    sources = Source.objects.filter(memories__in=ids)
    source_ids = set(sources.values_list("pk", flat=True))
    turns = set(sources.exclude(turn_id="").values_list("subject_id", "turn_id"))
    audit_erase_content(events=AuditEvent.objects.filter(memory_id__in=ids))
    vectors_drop(memory_ids=ids)
    IdempotencyRecord.objects.filter(memory_id__in=ids).delete()
    Memory.objects.filter(pk__in=ids).update(
        key="",
        value="",
        text="",
        metadata={},
        redactions={},
        session_id="",
        source=None,
        search=None,
        pinned=False,
        confidence=0.0,
        importance=0.0,
        sensitivity=Memory.Sensitivity.NORMAL,
        occurred_at=None,
        expires_at=None,
        access_count=0,
        last_accessed_at=None,
        status=Status.DELETED,
        updated_at=now,
    )
    Memory.objects.filter(pk__in=ids, valid_to=None).update(valid_to=now)
    Source.objects.filter(pk__in=source_ids, memories__isnull=True).delete()  # a source may serve several versions
    for subject_id, turn_id in turns:  # the posted turns they were extracted from
        if not Source.objects.filter(subject_id=subject_id, turn_id=turn_id).exists():
            _forget_turns(Ingest.objects.filter(subject_id=subject_id, turn_id=turn_id))
    return len(ids)


def _forget_turns(ingests: QuerySet[Ingest]) -> None:
    """Delete posted turns, and empty the audit events that named them. A worker still busy with
    one finds it gone and writes nothing (its transaction fails)."""
    for subject_id, turn_id in set(ingests.values_list("subject_id", "turn_id")):
        audit_erase_content(
            events=AuditEvent.objects.filter(
                subject_id=subject_id, action=AuditEvent.Action.INGEST_ACCEPTED, after__turn_id=turn_id
            )
        )
    ingests.delete()


@transaction.atomic
def memory_forget(*, memory: Memory, actor: Actor, reason: str = "") -> Memory:
    """Forget a memory and every earlier version of it."""
    erased = _erase(Memory.objects.filter(workspace_id=memory.workspace_id, lineage=memory.lineage))
    tombstone = (
        Memory.objects.select_related("subject__workspace").filter(lineage=memory.lineage).order_by("-version").first()
    )
    assert tombstone is not None  # _erase keeps the newest version, emptied
    audit_record(  # what kind of thing, how many versions: never its key
        workspace=tombstone.subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_FORGOTTEN,
        subject=tombstone.subject,
        memory=tombstone,
        after={"kind": tombstone.kind, "category": tombstone.category, "versions_erased": erased},
        reason=reason,
    )
    return tombstone


@transaction.atomic
def subject_forget(*, subject: Subject, actor: Actor, reason: str = "") -> int:
    """Forget everything kept about a person. Returns the number of memory rows erased."""
    erased = _erase(Memory.objects.filter(workspace_id=subject.workspace_id, subject=subject))
    Source.objects.filter(subject=subject).delete()
    IdempotencyRecord.objects.filter(subject=subject).delete()
    ForgetRequest.objects.filter(subject=subject).delete()  # their memories were just erased
    _forget_turns(Ingest.objects.filter(subject=subject))  # also turns that made no memory, or not yet
    audit_erase_content(events=AuditEvent.objects.filter(subject=subject))
    subject.display_name = ""
    subject.save(update_fields=["display_name", "updated_at"])
    audit_record(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.SUBJECT_FORGOTTEN,
        subject=subject,
        after={"memories_erased": erased},
        reason=reason,
    )
    return erased


# --- the person's controls: pause, don't learn this again, undo a delete ------------------------


def _learns(actor: Actor) -> bool:
    """Writes the person's controls apply to: an agent's (API, MCP, import) and a turn's. Their own
    corrections, an operator's and the lifecycle jobs' reorganizing are not learning."""
    return actor.type == AuditEvent.ActorType.AGENT or actor.channel == "turns"


def refuse_if_paused(*, subject: Subject, actor: Actor, channel: str) -> None:
    """Raise MemoryPaused for a learning write while the person has paused memory. `subject` must
    carry `memory_paused_at` as read under its lock (`_lock_subject`) or freshly loaded."""
    if subject.memory_paused_at is None or not _learns(actor):
        return
    raise MemoryPaused(
        "The person has paused memory: nothing new is stored about them until they resume it. Recall still "
        "answers from what is kept.",
        event=dict(
            workspace=subject.workspace,
            actor=actor,
            action=AuditEvent.Action.MEMORY_WRITE_REFUSED,
            subject=subject,
            after={"reason": MemoryPaused.code, "channel": channel},
            reason="Refused: memory is paused.",
        ),
    )


def suppressions_of(subject: Subject) -> list[Suppression]:
    """The person's don't-learn-again rules; none read when the lock saw none."""
    if not getattr(subject, "has_suppressions", True):
        return []
    return list(Suppression.objects.filter(workspace_id=subject.workspace_id, subject=subject))


def suppression_matching(
    suppressions: list[Suppression], *, key: str | None = None, text: str | None = None
) -> Suppression | None:
    """The rule that refuses a fact with this normalized `key`, or an episode whose redacted `text`
    contains a suppressed phrase (compared width- and case-folded)."""
    if key:
        return next((rule for rule in suppressions if rule.key and rule.key == key), None)
    if text:
        folded = normalize_value(text)
        return next((rule for rule in suppressions if rule.phrase and rule.phrase in folded), None)
    return None


def refuse_if_suppressed(
    *,
    subject: Subject,
    actor: Actor,
    channel: str,
    suppressions: list[Suppression],
    key: str | None = None,
    text: str | None = None,
) -> None:
    """Raise MemorySuppressed for a learning write that a don't-learn-again rule covers (`key` and
    `text` already redacted and normalized)."""
    if not suppressions or not _learns(actor):
        return
    if (rule := suppression_matching(suppressions, key=key, text=text)) is None:
        return
    raise MemorySuppressed(
        "The person deleted this memory and asked not to learn it again; it was not stored.",
        event=dict(
            workspace=subject.workspace,
            actor=actor,
            action=AuditEvent.Action.MEMORY_WRITE_REFUSED,
            subject=subject,
            after={"reason": MemorySuppressed.code, "channel": channel, "suppression": rule.pk},
            reason="Refused: the person asked not to learn this again.",
        ),
    )


def _set_paused(*, subject: Subject, actor: Actor, paused: bool) -> Subject:
    Subject.objects.select_for_update(no_key=True).filter(pk=subject.pk).exists()
    subject.memory_paused_at = timezone.now() if paused else None
    subject.save(update_fields=["memory_paused_at", "updated_at"])
    audit_record(
        workspace=subject.workspace,
        actor=actor,
        subject=subject,
        action=AuditEvent.Action.SUBJECT_MEMORY_PAUSED if paused else AuditEvent.Action.SUBJECT_MEMORY_RESUMED,
    )
    return subject


@transaction.atomic
def subject_memory_pause(*, subject: Subject, actor: Actor) -> Subject:
    """Agents stop learning about the person (writes and turns refused); recall keeps answering."""
    return _set_paused(subject=subject, actor=actor, paused=True)


@transaction.atomic
def subject_memory_resume(*, subject: Subject, actor: Actor) -> Subject:
    return _set_paused(subject=subject, actor=actor, paused=False)


def _suppression_for(memory: Memory) -> dict:
    """The rule that keeps `memory` from being learned again: its key (a fact) or its text (an episode),
    both already redacted; the text is redacted once more, as every write is."""
    if memory.kind == Memory.Kind.PROFILE:
        return {"key": normalize_key(redact(memory.key).text)}
    return {"phrase": normalize_value(redact(memory.text).text)[: settings.MEMORY_MAX_TEXT_CHARS]}


def _suppression_add(memory: Memory) -> tuple[Suppression, bool]:
    """The rule for `memory` (the same rule twice is one) and whether it is new; not audited."""
    rule = _suppression_for(memory)
    if not any(rule.values()):
        raise ValidationError({"non_field_errors": _("There is nothing left of this memory to recognize it by.")})
    return Suppression.objects.get_or_create(
        workspace_id=memory.workspace_id, subject_id=memory.subject_id, **rule, defaults={"category": memory.category}
    )


@transaction.atomic
def suppression_create(*, memory: Memory, actor: Actor) -> Suppression:
    """ "Don't learn this again" for `memory` (a fact's key, an episode's text)."""
    suppression, _created = _suppression_add(memory)
    audit_record(
        workspace=memory.subject.workspace,
        actor=actor,
        action=AuditEvent.Action.SUPPRESSION_CREATED,
        subject=memory.subject,
        after={"suppression": suppression.pk, "kind": memory.kind, "category": memory.category},
    )
    return suppression


@transaction.atomic
def suppression_delete(*, suppression: Suppression, actor: Actor) -> None:
    """The person allows it to be learned again."""
    subject = suppression.subject
    audit_record(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.SUPPRESSION_REMOVED,
        subject=subject,
        after={"suppression": suppression.pk, "category": suppression.category},
    )
    suppression.delete()


class UndoExpired(MemoryConflict):
    """The undo window has passed (or the memory is already erased)."""


@transaction.atomic
def memory_forget_request(*, memory: Memory, actor: Actor, suppress: bool = False, reason: str = "") -> ForgetRequest:
    """Delete with undo: every version leaves recall, lists and exports at once (status deleted) and
    is erased for real FORGET_UNDO_SECONDS later by `forget_requests_finish` (a Celery task with that
    countdown, and the beat sweep). `suppress`: also "don't learn this again"."""
    versions = list(
        Memory.objects.select_for_update(no_key=True)
        .select_related("subject__workspace")
        .filter(workspace_id=memory.workspace_id, lineage=memory.lineage)
        .exclude(status=Status.DELETED)
        .order_by("version")
    )
    if not versions:
        raise MemoryConflict("This memory is already forgotten.")
    current = versions[-1]
    subject = current.subject
    suppression, new_rule = _suppression_add(current) if suppress else (None, False)
    seconds = settings.FORGET_UNDO_SECONDS
    event = audit_record(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_FORGET_REQUESTED,
        subject=subject,
        memory=current,
        after={
            "kind": current.kind,
            "category": current.category,
            "versions": len(versions),
            "undo_seconds": seconds,
            "suppression": suppression.pk if suppression else None,
        },
        reason=reason,
    )
    Memory.objects.filter(pk__in=[v.pk for v in versions]).update(status=Status.DELETED)  # updated_at untouched
    request = ForgetRequest.objects.create(
        workspace_id=subject.workspace_id,
        subject=subject,
        lineage=current.lineage,
        memory=current,
        statuses={str(v.pk): v.status for v in versions},
        suppression=suppression if new_rule else None,
        requested=event,
        due_at=timezone.now() + timedelta(seconds=seconds),
    )

    def schedule() -> None:
        enqueue(forget_request_finish_task, str(request.pk), countdown=seconds + 0.5)

    transaction.on_commit(schedule, robust=True)
    return request


@transaction.atomic
def memory_forget_undo(*, request: ForgetRequest, actor: Actor) -> Memory:
    """Put every version back exactly as it was (statuses; nothing else was changed) and drop the
    don't-learn-again rule made with the delete. UndoExpired after the window."""
    locked = (
        ForgetRequest.objects.select_for_update(of=("self",))
        .select_related("subject__workspace", "memory")
        .filter(pk=request.pk)
        .first()
    )
    if locked is None or locked.due_at <= timezone.now():
        raise UndoExpired("Too late: the undo window has passed and the memory is erased.")
    request = locked
    current = request.memory
    if (
        current.kind == Memory.Kind.PROFILE
        and current.category != Category.CONSTRAINT
        and request.statuses.get(str(current.pk)) == Status.ACTIVE
        and Memory.objects.filter(
            subject_id=request.subject_id, kind=Memory.Kind.PROFILE, key=current.key, status=Status.ACTIVE
        )
        .exclude(category=Category.CONSTRAINT)
        .exclude(lineage=request.lineage)
        .exists()
    ):
        raise MemoryConflict("A new value for this was learned in the meantime; the deleted one stays deleted.")
    by_status: dict[str, list[str]] = {}
    for memory_id, status in request.statuses.items():
        by_status.setdefault(status, []).append(memory_id)
    for status, ids in by_status.items():
        Memory.objects.filter(pk__in=ids, lineage=request.lineage, status=Status.DELETED).update(status=status)
    if request.suppression_id:
        Suppression.objects.filter(pk=request.suppression_id).delete()
    subject = request.subject
    audit_record(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.MEMORY_FORGET_UNDONE,
        subject=subject,
        memory=current,
        after={"versions": len(request.statuses), "suppression_removed": request.suppression_id},
    )
    request.delete()
    current.refresh_from_db()
    return current


def _requester(request: ForgetRequest) -> Actor:
    """Who asked for the delete (the final erase is theirs), from the forget_requested event."""
    event = request.requested
    if event is None:
        return Actor.system("forget")
    return Actor(
        type=event.actor_type,
        id=event.actor_id,
        name=event.actor_name,
        request_id=event.request_id,
        channel=event.channel,
    )


def forget_requests_finish(*, request_id: str | uuid.UUID | None = None, subject: Subject | None = None) -> int:
    """Erase, for real, the deletes whose undo window has passed (all of them, one subject's, or one).
    Each in its own transaction; one a concurrent finisher holds is skipped. Returns how many."""
    due = ForgetRequest.objects.filter(due_at__lte=timezone.now())
    if request_id is not None:
        due = due.filter(pk=request_id)
    if subject is not None:
        due = due.filter(workspace_id=subject.workspace_id, subject=subject)
    finished = 0
    for pk in list(due.values_list("pk", flat=True)[:500]):
        with transaction.atomic():
            request = (
                ForgetRequest.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("requested", "memory")
                .filter(pk=pk, due_at__lte=timezone.now())
                .first()
            )
            if request is None:
                continue
            memory, actor = request.memory, _requester(request)
            request.delete()
            memory_forget(memory=memory, actor=actor, reason="deleted by the person; the undo window passed")
            finished += 1
    return finished
