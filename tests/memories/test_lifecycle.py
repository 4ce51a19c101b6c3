"""Lifecycle jobs with a time-shifted clock: each moves memories out of recall, keeps what it
should, follows the workspace's retention settings and audits every change as the system."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.accounts.models import RetentionPolicy
from apps.audit.models import AccessLog, AuditEvent, RecallStat
from apps.audit.services import Actor
from apps.memories import lifecycle
from apps.memories.models import Memory, MemoryEmbedding
from apps.memories.recall.access import Access, Recall, access_write
from apps.memories.services import memories_retire
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)


def later(days: float):
    return timezone.now() + timedelta(days=days)


def statuses(subject) -> dict[str, str]:
    return dict(Memory.objects.filter(subject=subject).values_list("text", "status"))


def system_events(action: str) -> int:
    return AuditEvent.objects.filter(action=action, actor_type="system", actor_name="lifecycle").count()


def test_memories_past_their_expiry_expire_and_leave_recall(alice):
    fact(alice, "dish", "hotpot tonight", expires_at=later(1))
    fact(alice, "tea", "oolong")

    assert lifecycle.expire(now=later(0.5)) == 0
    assert lifecycle.expire(now=later(2)) == 1

    assert statuses(alice) == {"dish: hotpot tonight": "expired", "tea: oolong": "active"}
    assert MemoryEmbedding.objects.filter(memory__key="dish").count() == 0
    assert system_events("memory.expired") == 1


def test_unimportant_memories_nobody_read_are_archived(alice, acme):
    RetentionPolicy.objects.create(workspace=acme, archive_unread_after_days=30)
    fact(alice, "trivia", "once mentioned liking jazz", importance=0.1)
    fact(alice, "big", "works in Berlin", importance=0.9)
    fact(alice, "diet", "no peanuts", category="constraint", importance=0.1)
    pinned = fact(alice, "small", "likes blue pens", importance=0.1, pinned=True)
    read = fact(alice, "music", "listens to techno", importance=0.1)
    access_write(
        [Access(workspace_id=acme.pk, agent_id=None, subject_id=alice.pk, memory_id=read.pk, rank=1, score=0.5)]
    )
    Memory.objects.filter(pk=read.pk).update(last_accessed_at=later(25))

    assert lifecycle.archive_unread(now=later(40)) == 1

    result = statuses(alice)
    assert result["trivia: once mentioned liking jazz"] == "archived"
    assert {
        result["big: works in Berlin"],
        result["diet: no peanuts"],
        result[pinned.text],
        result["music: listens to techno"],
    } == {"active"}


def test_each_subject_keeps_its_most_valuable_episodes_up_to_the_capacity(alice, bob, acme):
    RetentionPolicy.objects.create(workspace=acme, subject_capacity=3)
    for number, (importance, days) in enumerate([(0.9, 1), (0.2, 1), (0.9, 100), (0.5, 2), (0.1, 30)]):
        episode(alice, f"event {number}", importance=importance, days=days)
    episode(bob, "bob's only event", importance=0.1)

    assert lifecycle.enforce_capacity(now=timezone.now()) == 2

    active = set(Memory.objects.filter(subject=alice, status="active").values_list("text", flat=True))
    assert active == {"event 0", "event 3", "event 1"}
    assert Memory.objects.get(subject=bob).status == "active"
    assert system_events("memory.archived") == 2


def test_constraint_fragments_are_consolidated_into_one_that_keeps_their_sources(alice):
    for value in ("no peanuts", "no shellfish", "no pork"):
        fact(alice, "diet", value, category="constraint")

    assert lifecycle.consolidate(now=timezone.now()) == 1

    active = Memory.objects.get(subject=alice, status="active")
    assert active.value == "no peanuts; no shellfish; no pork"
    assert len(active.metadata["consolidated_from"]) == 3
    assert Memory.objects.filter(subject=alice, status="archived").count() == 3
    assert system_events("memory.consolidated") == 3
    assert lifecycle.consolidate(now=timezone.now()) == 0  # nothing left to merge


def test_old_sessions_are_compacted_into_one_summary_episode(alice):
    episode(alice, "asked about refunds", session_id="s-1", days=10)
    episode(alice, "refund submitted for order 8812", session_id="s-1", days=10)
    episode(alice, "fresh question", session_id="s-2", days=1)
    episode(alice, "another fresh one", session_id="s-2", days=1)

    assert lifecycle.compact_sessions(now=timezone.now()) == 1

    summary = Memory.objects.get(subject=alice, category="summary")
    assert summary.text == "Conversation s-1: asked about refunds / refund submitted for order 8812"
    assert summary.session_id == "s-1" and len(summary.metadata["compacted_from"]) == 2
    assert Memory.objects.filter(subject=alice, session_id="s-2", status="active").count() == 2


def test_the_access_log_is_pruned_after_the_workspace_retention(alice, acme):
    RetentionPolicy.objects.create(workspace=acme, access_log_retention_days=30)
    memory = fact(alice, "tea", "oolong")
    access_write(
        [Access(workspace_id=acme.pk, agent_id=None, subject_id=alice.pk, memory_id=memory.pk, rank=1, score=0.5)],
        [Recall(workspace_id=acme.pk, agent_id=None, took_ms=5, results=1, fallback="")],
    )

    assert lifecycle.prune_access_log(now=later(10)) == 0
    assert lifecycle.prune_access_log(now=later(31)) == 1
    assert not AccessLog.objects.exists() and not RecallStat.objects.exists()
    assert AuditEvent.objects.get(action="accesslog.pruned").after["rows"] == 1


def test_the_command_runs_every_job_with_a_shifted_clock(alice, capsys):
    fact(alice, "dish", "hotpot tonight", expires_at=later(1))

    call_command("lifecycle", "all", "--now", later(2).isoformat())

    out = capsys.readouterr().out
    assert "expire: 1" in out and "prune-access: 0" in out
    assert Memory.objects.get(key="dish").status == "expired"


def test_memories_retire_takes_only_active_memories_out_of_recall_as_its_actor(alice):
    tea = fact(alice, "tea", "oolong")
    old = fact(alice, "dish", "hotpot")
    Memory.objects.filter(pk=old.pk).update(status="expired")
    when = later(3)

    retired = memories_retire(
        memories=[tea, old],
        status="archived",
        action="memory.archived",
        reason="tidying up",
        actor=Actor.system("janitor"),
        now=when,
    )

    assert retired == 1
    assert statuses(alice) == {"tea: oolong": "archived", "dish: hotpot": "expired"}
    assert Memory.objects.get(pk=tea.pk).valid_to == when
    assert not MemoryEmbedding.objects.filter(memory=tea).exists()
    event = AuditEvent.objects.get(memory=tea, action="memory.archived")
    assert (event.actor_name, event.before, event.after, event.reason) == (
        "janitor",
        {"status": "active"},
        {"status": "archived"},
        "tidying up",
    )
