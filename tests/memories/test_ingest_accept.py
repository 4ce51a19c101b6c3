"""Accepting a posted turn is one transaction, and the same turn posted twice at once is one turn."""

import pytest

from apps.accounts.models import Subject
from apps.audit.models import AuditEvent
from apps.memories import ingest
from apps.memories.models import Ingest

pytestmark = pytest.mark.django_db(transaction=True)


def accept(workspace, agent, turn_id="t-1", external_id="dora"):
    return ingest.ingest_accept(
        workspace=workspace, external_id=external_id, agent=agent, turn_id=turn_id, user_message="I live in Lisbon."
    )


def test_a_turn_whose_audit_row_fails_leaves_no_turn_and_no_new_person(acme, support_bot, monkeypatch):
    def broken_audit(**event):
        raise RuntimeError("audit table unavailable")

    monkeypatch.setattr(ingest, "audit_record", broken_audit)

    with pytest.raises(RuntimeError):
        accept(acme, support_bot)

    assert not Ingest.objects.exists()
    assert not Subject.objects.filter(external_id="dora").exists()


def test_the_same_turn_posted_twice_at_once_is_one_turn_not_an_error(acme, support_bot, monkeypatch):
    first, created = accept(acme, support_bot)
    # The second request looked before the first committed: it sees no turn, then meets the first at insert.
    monkeypatch.setattr(ingest, "_accepted_turn", lambda *, subject, turn_id: None)

    again, created_again = accept(acme, support_bot)

    assert (created, created_again) == (True, False)
    assert again.pk == first.pk and Ingest.objects.count() == 1
    assert AuditEvent.objects.filter(action=AuditEvent.Action.INGEST_ACCEPTED).count() == 1


def test_a_paused_persons_turn_is_refused_and_the_refusal_audited(acme, support_bot):
    from apps.accounts.services import subject_get_or_create
    from apps.audit.services import Actor
    from apps.memories.services import MemoryPaused, subject_memory_pause

    person = subject_get_or_create(workspace=acme, external_id="dora")
    subject_memory_pause(subject=person, actor=Actor.system())

    with pytest.raises(MemoryPaused):
        accept(acme, support_bot)

    assert not Ingest.objects.exists()
    refused = AuditEvent.objects.get(action=AuditEvent.Action.MEMORY_WRITE_REFUSED)
    assert refused.subject == person and refused.after["channel"] == "turns"
