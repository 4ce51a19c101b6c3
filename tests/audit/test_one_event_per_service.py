"""Every service call appends exactly one AuditEvent, carrying the actor."""

import pytest

from apps.audit.models import AuditEvent
from apps.memories.models import ForgetRequest, Suppression
from apps.memories.services import (
    episode_record,
    fact_upsert,
    memory_correct,
    memory_forget,
    memory_forget_request,
    memory_forget_undo,
    memory_pin,
    memory_unpin,
    subject_forget,
    subject_memory_pause,
    subject_memory_resume,
    suppression_create,
    suppression_delete,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fact(alice, bot):
    return fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory


def one_new_event(call):
    before = set(AuditEvent.objects.values_list("id", flat=True))
    call()
    new = AuditEvent.objects.exclude(id__in=before)
    assert new.count() == 1
    return new.get()


@pytest.mark.parametrize(
    "name, call, action",
    [
        (
            "create",
            lambda s, b, f: fact_upsert(subject=s, key="k", value="v", category="fact", actor=b),
            "memory.created",
        ),
        (
            "supersede",
            lambda s, b, f: fact_upsert(subject=s, key="tea", value="black", category="preference", actor=b),
            "memory.superseded",
        ),
        (
            "rewrite",
            lambda s, b, f: fact_upsert(subject=s, key="tea", value="green tea", category="preference", actor=b),
            "memory.reaffirmed",
        ),
        (
            "decline",
            lambda s, b, f: fact_upsert(
                subject=s, key="tea", value="x", category="preference", confidence=0.1, actor=b
            ),
            "memory.write_declined",
        ),
        ("episode", lambda s, b, f: episode_record(subject=s, text="hello", actor=b), "memory.created"),
        ("correct", lambda s, b, f: memory_correct(memory=f, content="white tea", actor=b), "memory.corrected"),
        ("pin", lambda s, b, f: memory_pin(memory=f, actor=b), "memory.pinned"),
        ("unpin", lambda s, b, f: memory_unpin(memory=f, actor=b), "memory.unpinned"),
        ("forget", lambda s, b, f: memory_forget(memory=f, actor=b), "memory.forgotten"),
        ("forget all", lambda s, b, f: subject_forget(subject=s, actor=b), "subject.forgotten"),
        ("pause", lambda s, b, f: subject_memory_pause(subject=s, actor=b), "subject.memory_paused"),
        ("resume", lambda s, b, f: subject_memory_resume(subject=s, actor=b), "subject.memory_resumed"),
        ("don't learn again", lambda s, b, f: suppression_create(memory=f, actor=b), "suppression.created"),
        (
            "allow again",
            lambda s, b, f: suppression_delete(
                suppression=Suppression.objects.create(workspace=s.workspace, subject=s, key="tea"), actor=b
            ),
            "suppression.removed",
        ),
        (
            "delete with undo",
            lambda s, b, f: memory_forget_request(memory=f, actor=b, suppress=True),
            "memory.forget_requested",
        ),
        (
            "undo",
            lambda s, b, f: memory_forget_undo(
                request=ForgetRequest.objects.create(
                    workspace=s.workspace,
                    subject=s,
                    lineage=f.lineage,
                    memory=f,
                    statuses={str(f.pk): "active"},
                    due_at=f.created_at.replace(year=2100),
                ),
                actor=b,
            ),
            "memory.forget_undone",
        ),
    ],
)
def test_each_service_writes_exactly_one_audit_event(alice, bot, fact, name, call, action):
    event = one_new_event(lambda: call(alice, bot, fact))

    assert event.action == action
    assert (event.actor_type, event.actor_name, event.request_id) == ("agent", "Support Bot", "req-test")
    assert event.workspace_id == alice.workspace_id and event.subject_id == alice.id


def test_the_audit_trail_records_before_and_after_of_a_change(alice, bot, fact):
    event = one_new_event(lambda: memory_correct(memory=fact, content="white tea", reason="typo", actor=bot))

    assert (event.before["value"], event.after["value"]) == ("green tea", "white tea")
    assert (event.before["version"], event.after["version"], event.reason) == (1, 2, "typo")
