"""Turn ingestion: accept a conversation turn (redacted before it is stored or enqueued), then,
in a Celery task, extract → filter → normalize → deduplicate → write through the services.

Conservative by design: low-confidence, transient, sensitive (unless the workspace allows the
category) and instruction-like proposals are dropped and reported in `skipped`.
"""

import logging
import re
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import Agent, Subject, Workspace
from apps.accounts.quota import writes_charge
from apps.accounts.selectors import retention_for
from apps.accounts.services import subject_get_or_create
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.memories.embeddings import EmbeddingError, calibration, get_embedder, store
from apps.memories.extraction import Extraction, Extractor, Proposal, Turn, get_extractor
from apps.memories.extraction.guard import looks_like_injection
from apps.memories.extraction.normalize import canonical_key, canonical_units, resolve_dates
from apps.memories.models import Ingest, Memory
from apps.memories.selectors import fact_is_known, ingest_previous_reply
from apps.memories.services import (
    IdempotencyConflict,
    InjectionRefused,
    Outcome,
    Provenance,
    Refused,
    episode_record,
    fact_upsert,
    normalize_key,
    normalize_value,
    refusals_audited,
    refuse_if_paused,
)
from apps.memories.tasks import enqueue, ingest_turn_task
from apps.privacy import PIIRejected, redact
from apps.privacy.identifiers import refuse_pii_in_identifiers
from apps.webhooks.events import emit_for_ingest
from memoryadmin import metrics
from memoryadmin.db import unsynced_commit
from memoryadmin.tracing import span

logger = logging.getLogger(__name__)
# A turn taken this often without finishing is given up as failed: its worker died each time (a turn
# that crashes a worker would otherwise be sent again forever). Above the extractor's 6 tries.
MAX_ATTEMPTS = 10
_DIGITS = re.compile(r"\d+(?:\.\d+)*")


def _turn_actor(agent: Agent | None) -> Actor:
    """Who wrote what a turn became: its agent (or the ingest job), through the turns channel."""
    return Actor.agent(agent, channel="turns") if agent else replace(Actor.system("ingest"), channel="turns")


def _accepted_turn(*, subject: Subject, turn_id: str) -> Ingest | None:
    return Ingest.objects.filter(subject=subject, turn_id=turn_id).first()


@refusals_audited
@transaction.atomic
def ingest_accept(
    *,
    workspace: Workspace,
    external_id: str,
    agent: Agent | None,
    turn_id: str,
    user_message: str,
    assistant_message: str = "",
    session_id: str = "",
    occurred_at: datetime | None = None,
) -> tuple[Ingest, bool]:
    """Store the redacted turn of the person `external_id` (created if new, in the same
    transaction) and enqueue its processing after commit. Idempotent on turn_id: the same turn
    again returns the first Ingest (and False). Ids holding personal data are refused first; a
    person who paused memory has new turns refused (MemoryPaused, audited once the turn's
    transaction rolled back)."""
    refuse_pii_in_identifiers(turn_id=turn_id, session_id=session_id)
    subject = subject_get_or_create(workspace=workspace, external_id=external_id)
    if (existing := _accepted_turn(subject=subject, turn_id=turn_id)) is not None:
        return existing, False
    refuse_if_paused(subject=subject, actor=_turn_actor(agent), channel="turns")
    user, assistant = redact(user_message), redact(assistant_message)
    counts = dict(user.counts)
    for kind, count in assistant.counts.items():
        counts[kind] = counts.get(kind, 0) + count
    try:
        with transaction.atomic():  # the same turn from a concurrent request meets ours here
            ingest = Ingest.objects.create(
                workspace_id=subject.workspace_id,
                subject=subject,
                agent=agent,
                session_id=session_id,
                turn_id=turn_id,
                user_message=user.text,
                assistant_message=assistant.text,
                occurred_at=occurred_at or timezone.now(),
                redactions=counts,
                enqueued_at=timezone.now(),  # emptied (→ outbox) if the broker refuses it
            )
    except IntegrityError:
        return Ingest.objects.get(subject=subject, turn_id=turn_id), False
    metrics.redacted(counts)
    audit_record(
        workspace=subject.workspace,
        actor=_turn_actor(agent),
        action=AuditEvent.Action.INGEST_ACCEPTED,
        subject=subject,
        after={"turn_id": turn_id, "redactions": counts},
    )
    transaction.on_commit(lambda: ingest_enqueue(ingest_id=ingest.id, note=False), robust=True)
    return ingest, True


def ingest_enqueue(*, ingest_id, note: bool = True) -> bool:
    """Hand the ingest to the broker. `enqueued_at` says when it last was (`note`: write it now);
    if the broker refuses, it is emptied and the turn waits in the outbox."""
    sent = enqueue(ingest_turn_task, str(ingest_id))
    if note or not sent:
        # unsynced: a note lost in a crash only makes the outbox send the turn again (processing is idempotent)
        with unsynced_commit():
            Ingest.objects.filter(pk=ingest_id).update(enqueued_at=timezone.now() if sent else None)
    return sent


def outbox_flush(*, limit: int = 500) -> int:
    """Enqueue the turns the broker refused (accepted while it was down), and those it took
    INGEST_REQUEUE_AFTER ago without a worker finishing them (lost with a broker restart, or with
    a worker that died). Returns how many went."""
    lost = timezone.now() - timedelta(seconds=settings.INGEST_REQUEUE_AFTER)
    pending = (
        Ingest.objects.filter(status__in=[Ingest.Status.QUEUED, Ingest.Status.RUNNING])
        .filter(Q(enqueued_at=None) | Q(enqueued_at__lt=lost))
        .order_by("created_at")
    )
    return sum(ingest_enqueue(ingest_id=ingest_id) for ingest_id in pending.values_list("id", flat=True)[:limit])


def _redacted(text: str) -> str:
    """What an extractor (an LLM, say) or its error says is redacted before it is stored; text of
    a type the PII policy refuses is left out."""
    try:
        return redact(text).text
    except PIIRejected:
        return ""


def _memory_summary(memory: Memory) -> dict:
    return {
        "id": str(memory.id),
        "kind": memory.kind,
        "category": memory.category,
        "key": memory.key,
        "text": memory.text,
    }


def _rejection(proposal: Proposal, allowed_sensitive: list[str]) -> str:
    """Why a proposal is not stored, or "" when it may be."""
    content = " ".join(filter(None, [proposal.key, proposal.value, proposal.text, proposal.evidence]))
    if looks_like_injection(content):
        return "injection"
    if proposal.sensitive and proposal.sensitive not in allowed_sensitive:
        return f"sensitive:{proposal.sensitive}"
    if proposal.stability == "transient":
        return "transient"
    if proposal.confidence < settings.INGEST_MIN_CONFIDENCE:
        return "low_confidence"
    return ""


def _fingerprint(proposal: Proposal) -> tuple:
    """What makes two proposals of one turn the same memory."""
    if proposal.kind == Memory.Kind.PROFILE:
        return proposal.kind, proposal.category, canonical_key(proposal.key), normalize_value(proposal.value)
    return proposal.kind, proposal.category, "", normalize_value(proposal.text)


def _normalized(proposal: Proposal, turn: Turn) -> tuple[str, dict]:
    """The proposal's text with absolute dates and canonical units, and what was changed."""
    text, dates = resolve_dates(proposal.content, now=turn.now, timezone=turn.timezone)
    text, units = canonical_units(text)
    return text, {key: value for key, value in (("dates", dates), ("units", units)) if value}


def _duplicate_episode(subject: Subject, text: str) -> Memory | None:
    """An active episode saying the same thing: similar beyond the model's calibrated duplicate
    threshold AND naming the same numbers (so "deployed v2" never merges into "deployed v3").
    Compared passage with passage, as the threshold was calibrated (bench/bench_embeddings.py):
    a query embedding sits a few hundredths lower against the same text."""
    index = store.active_index()
    try:
        with span("embedding.passages", model=index.name, count=1):
            query = get_embedder(index.name).embed_passages([text])[0]
    except EmbeddingError:
        return None
    threshold = calibration(index.model_id)["duplicate"]
    rows = store.nearest(
        index=index,
        subject=subject,
        query_vector=query,
        limit=3,
        memories=Memory.objects.filter(subject=subject, kind=Memory.Kind.EPISODE, status=Memory.Status.ACTIVE),
    )
    numbers = set(_DIGITS.findall(text))
    for memory_id, similarity in rows:
        if similarity < threshold:
            break
        memory = Memory.objects.get(pk=memory_id)
        if set(_DIGITS.findall(memory.text)) == numbers:
            return memory
    return None


def _write(
    ingest: Ingest, proposal: Proposal, turn: Turn, actor: Actor, extractor: Extractor, *, idempotency_key: str
) -> tuple[Memory, str]:
    """Write one accepted proposal through the services: (memory, "created" | "updated" |
    "duplicate"). A duplicate episode is not written; its existing twin comes back."""
    subject = ingest.subject
    text, normalized = _normalized(proposal, turn)
    provenance = Provenance(
        agent=ingest.agent,
        session_id=ingest.session_id,
        turn_id=ingest.turn_id,
        channel="turns",
        excerpt=proposal.evidence,
        extractor=extractor.name,
        extractor_version=extractor.version,
    )
    metadata = {**proposal.metadata, **normalized, "scope": proposal.scope}
    if proposal.kind == Memory.Kind.PROFILE:
        result = fact_upsert(
            subject=subject,
            key=canonical_key(proposal.key),
            value=text,
            category=proposal.category,
            confidence=proposal.confidence,
            importance=proposal.importance,
            session_id=ingest.session_id,
            metadata=metadata,
            provenance=provenance,
            actor=actor,
            idempotency_key=idempotency_key,
        )
    else:
        if twin := _duplicate_episode(subject, text):
            return twin, "duplicate"
        result = episode_record(
            subject=subject,
            text=text,
            category=proposal.category,
            occurred_at=ingest.occurred_at,
            session_id=ingest.session_id,
            importance=proposal.importance,
            metadata=metadata,
            provenance=provenance,
            actor=actor,
            idempotency_key=idempotency_key,
        )
    outcome = result.first_outcome or result.outcome
    return result.memory, "created" if outcome in (Outcome.CREATED, Outcome.SUPERSEDED) else "updated"


def ingest_process(*, ingest_id) -> Ingest:
    """Extract memories from one stored turn and write them. Idempotent: a finished ingest is left
    as it is, so a redelivered task does nothing.

    The extractor (maybe an LLM endpoint) runs outside any transaction; the turn's writes and its
    "done" commit together, once.
    """
    with unsynced_commit():  # "running" is a progress note: after a crash the turn is simply redone
        ingest = (
            Ingest.objects.select_for_update(of=("self",), no_key=True)
            .select_related("subject__workspace", "agent")
            .get(pk=ingest_id)
        )
        if ingest.status in (Ingest.Status.DONE, Ingest.Status.FAILED):
            return ingest
        if ingest.attempts >= MAX_ATTEMPTS:
            logger.error("Ingest %s given up after %d attempts", ingest.id, ingest.attempts)
            ingest_fail(
                ingest_id=ingest.id,
                error=f"gave up after {ingest.attempts} attempts: the worker processing this turn stopped each time",
            )
            ingest.refresh_from_db()
            return ingest
        ingest.status, ingest.attempts = Ingest.Status.RUNNING, ingest.attempts + 1
        ingest.save(update_fields=["status", "attempts"])

    subject = ingest.subject
    turn = Turn(
        user_message=ingest.user_message,
        assistant_message=ingest.assistant_message,
        now=ingest.occurred_at.astimezone(timezone.get_current_timezone()),
        timezone=subject.timezone,
        asked=ingest_previous_reply(ingest=ingest),  # "Just Jo" answers "What should I call you?"
    )
    extractor = get_extractor()
    extraction: Extraction = extractor.extract(turn)  # ExtractionError → the task retries
    allowed = retention_for(workspace=subject.workspace).allowed_sensitive
    actor = _turn_actor(ingest.agent)
    created: list[dict] = []
    updated: list[dict] = []
    skipped = [{"text": s.text, "reason": s.reason} for s in extraction.skipped]
    limit, beyond_limit = settings.INGEST_MAX_PROPOSALS_PER_TURN, 0
    seen: dict[object, bool] = {}
    with transaction.atomic():
        for number, proposal in enumerate(extraction.proposals):
            fingerprint = _fingerprint(proposal)
            if fingerprint in seen:  # the same thing said again in this turn: written (or refused) once
                if not seen[fingerprint]:
                    skipped.append({"text": proposal.evidence or proposal.value or proposal.text, "reason": "repeated"})
                    seen[fingerprint] = True
                continue
            seen[fingerprint] = False
            reason = _rejection(proposal, allowed)
            if (
                not reason
                and proposal.metadata.get("inferred_from")
                and fact_is_known(subject=subject, key=normalize_key(canonical_key(proposal.key)))
            ):
                reason = "inferred_known"  # "works in Tacoma" does not replace "I live in Hoboken"
            if reason:
                skipped.append({"text": proposal.evidence or proposal.value or proposal.text, "reason": reason})
                continue
            if len(created) + len(updated) >= limit:
                beyond_limit += 1
                continue
            try:
                memory, what = _write(
                    ingest, proposal, turn, actor, extractor, idempotency_key=f"ingest:{ingest.id}:{number}"
                )
            except InjectionRefused:  # the services' own guard (audited there, channel "turns")
                skipped.append({"text": proposal.evidence, "reason": "injection"})
                continue
            except ValidationError:
                skipped.append({"text": proposal.evidence, "reason": "invalid"})
                continue
            except PIIRejected:
                skipped.append({"text": proposal.evidence, "reason": "pii_rejected"})
                continue
            except Refused as refused:  # paused since the turn came in, or a don't-learn-again rule (audited)
                skipped.append({"text": proposal.evidence, "reason": refused.code})
                continue
            except IdempotencyConflict:  # a redone turn whose extractor now proposes something else
                skipped.append({"text": proposal.evidence, "reason": "idempotency_key_reused"})
                continue
            if what == "duplicate":
                skipped.append({"text": proposal.text, "reason": "duplicate"})
            (created if what == "created" else updated).append(_memory_summary(memory))
        if beyond_limit:
            skipped.append(
                {
                    "text": f"{beyond_limit} more proposals beyond the limit of {limit} per turn",
                    "reason": "too_many_proposals",
                }
            )

        ingest.status, ingest.error, ingest.finished_at = Ingest.Status.DONE, "", timezone.now()
        skipped = [{"text": _redacted(s["text"]), "reason": s["reason"]} for s in skipped]
        ingest.result = {"created": created, "updated": updated, "skipped": skipped}
        # One attempt per turn, however many of its clauses the extractor refused on their own.
        ingest.injections = int(any(s["reason"] == "injection" for s in skipped))
        metrics.INJECTION_REFUSALS.labels("turns").inc(ingest.injections)
        ingest.save(update_fields=["status", "result", "injections", "error", "finished_at"])
        emit_for_ingest(ingest)
    writes_charge(agent_id=ingest.agent_id, count=len(created))  # each new memory is a write to the throttle
    return ingest


@transaction.atomic
def ingest_fail(*, ingest_id, error: str) -> None:
    """Give up on an ingest after its retries; the agent sees the error in the ingest status."""
    Ingest.objects.filter(pk=ingest_id).update(
        status=Ingest.Status.FAILED, error=_redacted(error[:500]), finished_at=timezone.now()
    )
    if failed := Ingest.objects.select_related("subject").filter(pk=ingest_id).first():
        emit_for_ingest(failed)
