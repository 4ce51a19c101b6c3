"""Writes to the audit trail. Called by the other apps' services inside their transactions."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet

from apps.accounts.models import Agent, Subject, Workspace
from apps.audit.models import AuditEvent
from apps.privacy import PIIRejected, redact
from apps.webhooks.events import emit_for_audit, emit_for_audits

if TYPE_CHECKING:  # audit sits below memories: the type only
    from apps.memories.models import Memory


@dataclass(frozen=True)
class Actor:
    """Who is making a change: carried from the request (or job) into every service call."""

    type: str  # AuditEvent.ActorType
    id: str = ""
    name: str = ""
    request_id: str = ""
    channel: str = ""  # how the change arrived: api, mcp, turns, portal, console, system

    @classmethod
    def system(cls, name: str = "system") -> "Actor":
        return cls(type=AuditEvent.ActorType.SYSTEM, name=name, channel="system")

    @classmethod
    def agent(cls, agent: Agent, *, request_id: str = "", channel: str = "api") -> "Actor":
        return cls(
            type=AuditEvent.ActorType.AGENT, id=str(agent.pk), name=agent.name, request_id=request_id, channel=channel
        )

    @classmethod
    def user(cls, user: AbstractBaseUser, *, type: str, request_id: str = "", channel: str = "") -> "Actor":
        return cls(type=type, id=str(user.pk), name=user.get_username(), request_id=request_id, channel=channel)


def _name(actor: Actor) -> str:
    """The actor's name, redacted: a username may be an e-mail address. A name the PII policy
    would refuse is left out (the actor id still says who)."""
    try:
        return redact(actor.name).text
    except PIIRejected:
        return ""


def _reason(text: str) -> str:
    return redact(text).text


def audit_record(
    *,
    workspace: Workspace,
    actor: Actor,
    action: AuditEvent.Action,
    subject: Subject | None = None,
    memory: "Memory | None" = None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
) -> AuditEvent:
    """Append one event. `before`/`after` must already be redacted; the free-text reason is redacted here.
    A change that webhooks announce (apps.webhooks.events.AUDITED) is put in their outbox here, in
    the same transaction: every service audits its change, so no write path can miss it."""
    event = _event(
        workspace=workspace,
        actor=actor,
        action=action,
        subject=subject,
        memory=memory,
        before=before,
        after=after,
        reason=reason,
    )
    event.save(force_insert=True)
    emit_for_audit(event)
    return event


def audit_record_bulk(entries: list[dict]) -> list[AuditEvent]:
    """`audit_record` for many events at once (a batch import), in order: each entry is its keyword
    arguments. Actor names and reasons are redacted once per distinct value; webhook endpoints are
    read once per workspace and event type."""
    names, reasons = {}, {}

    def name(actor: Actor) -> str:
        if actor not in names:
            names[actor] = _name(actor)
        return names[actor]

    def reason(text: str) -> str:
        if text not in reasons:
            reasons[text] = _reason(text)
        return reasons[text]

    events = [_event(**entry, redact_name=name, redact_reason=reason) for entry in entries]
    AuditEvent.objects.bulk_create(events, batch_size=1000)
    emit_for_audits(events)
    return events


def _event(
    *,
    workspace: Workspace,
    actor: Actor,
    action: AuditEvent.Action,
    subject: Subject | None = None,
    memory: "Memory | None" = None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
    redact_name: Callable[[Actor], str] | None = None,
    redact_reason: Callable[[str], str] | None = None,
) -> AuditEvent:
    """The unsaved event of `audit_record`."""
    return AuditEvent(
        workspace=workspace,
        actor_type=actor.type,
        actor_id=actor.id,
        actor_name=(redact_name or _name)(actor),
        action=action,
        subject=subject,
        memory=memory,
        before=before or {},
        after=after or {},
        reason=(redact_reason or _reason)(reason) if reason else "",
        request_id=actor.request_id,
        channel=actor.channel,
    )


def audit_record_many(
    *,
    actor: Actor,
    action: AuditEvent.Action,
    memories: Iterable["Memory"],
    before: dict,
    after: dict,
    reason: str = "",
) -> int:
    """One event per memory for a batch change made by a job (same action, same before/after)."""
    name, reason = _name(actor), redact(reason).text
    events = [
        AuditEvent(
            workspace_id=m.workspace_id,
            actor_type=actor.type,
            actor_id=actor.id,
            actor_name=name,
            action=action,
            subject_id=m.subject_id,
            memory_id=m.pk,
            before=before,
            after=after,
            reason=reason,
            request_id=actor.request_id,
            channel=actor.channel,
        )
        for m in memories
    ]
    AuditEvent.objects.bulk_create(events, batch_size=1000)
    return len(events)


def audit_erase_content(*, events: QuerySet[AuditEvent]) -> int:
    """Forget: keep action, actor and time of each event; drop what it said."""
    return events.update(before={}, after={}, reason="")
