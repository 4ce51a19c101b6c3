"""After "forget everything" (or deleting one memory) nothing about the forgotten content is left
for the person, an operator or an agent to read: not in the export, not on the tombstone, not in
the audit trail — which keeps who erased how many of what kind, and when."""

import pytest

from apps.accounts.models import Agent
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.memories.ingest import ingest_accept
from apps.memories.models import IdempotencyRecord, Ingest, Memory, Source
from apps.memories.services import Provenance, fact_upsert
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db(transaction=True)

TRACES = ("id_number", "diet_rule", "city_home", "sess-zq81", "turn-zq81", "turn-zq82", "CN_RESIDENT_ID")


@pytest.fixture
def remembered(alice):
    """Three facts about Alice from Support Bot (one with a resident ID), one from a posted turn."""
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    actor = Actor.agent(bot)
    written = [
        fact_upsert(
            subject=alice,
            key=key,
            value=value,
            category="fact",
            actor=actor,
            confidence=0.8,
            session_id="sess-zq81",
            idempotency_key=f"idem-{key}",
            provenance=Provenance(agent=bot, session_id="sess-zq81", turn_id="turn-zq81", excerpt=value),
        ).memory
        for key, value in (("id_number", "11010519491231002X"), ("diet_rule", "no pork"), ("city_home", "Chengdu"))
    ]
    ingest_accept(
        workspace=alice.workspace,
        external_id="alice",
        agent=bot,
        turn_id="turn-zq82",
        session_id="sess-zq81",
        user_message="I live in Chengdu.",
    )
    return written


def test_after_forget_everything_the_export_holds_nothing_of_what_was_forgotten(as_alice, remembered):
    assert as_alice.post("/me/forget", {"confirmation": "forget everything"}).status_code == 302

    document = as_alice.get("/me/export.json").json()
    page = as_alice.get("/me/export").content.decode()

    assert document["memories"] == []
    assert "Nothing is kept about you." in page and "(erased)" not in page
    for trace in TRACES:
        assert trace not in str(document) and trace not in page, trace


def test_after_forget_everything_no_table_holds_a_key_a_session_or_a_turn_id(as_alice, remembered):
    assert all(columns_containing(trace) for trace in ("id_number", "sess-zq81", "turn-zq81", "turn-zq82"))

    as_alice.post("/me/forget", {"confirmation": "forget everything"})

    for trace in TRACES:
        assert columns_containing(trace) == [], trace
    assert not Source.objects.exists() and not IdempotencyRecord.objects.exists() and not Ingest.objects.exists()
    assert set(Memory.objects.values_list("status", "key", "session_id")) == {("deleted", "", "")}
    assert list(Memory.objects.values_list("redactions", flat=True).distinct()) == [{}]


def test_the_audit_trail_keeps_who_erased_how_many_and_when(as_alice, remembered):
    as_alice.post("/me/forget", {"confirmation": "forget everything"})

    event = AuditEvent.objects.get(action="subject.forgotten")
    assert (event.actor_type, event.after) == ("end_user", {"memories_erased": 4})  # 3 facts + the turn's city
    assert event.created_at is not None


def test_deleting_one_memory_leaves_neither_its_key_nor_its_session_or_turn(as_alice, alice, settings):
    settings.FORGET_UNDO_SECONDS = 0  # the undo window closes at once (tests/portal/test_trust.py covers undo)
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    kept = fact_upsert(
        subject=alice,
        key="tea",
        value="oolong",
        category="preference",
        actor=Actor.agent(bot),
        provenance=Provenance(agent=bot, turn_id="turn-kept"),
    ).memory
    doomed = fact_upsert(
        subject=alice,
        key="diet_rule",
        value="no pork",
        category="constraint",
        actor=Actor.agent(bot),
        session_id="sess-zq81",
        idempotency_key="idem-zq81",
        provenance=Provenance(agent=bot, session_id="sess-zq81", turn_id="turn-zq81"),
    ).memory

    assert as_alice.post(f"/me/memories/{doomed.id}/delete").status_code == 302

    for trace in ("diet_rule", "sess-zq81", "turn-zq81", "no pork"):
        assert columns_containing(trace) == [], trace
    tombstone = Memory.objects.get(pk=doomed.pk)
    assert (tombstone.status, tombstone.key, tombstone.source, tombstone.redactions) == ("deleted", "", None, {})
    event = AuditEvent.objects.get(action="memory.forgotten")
    assert event.after == {"kind": "profile", "category": "constraint", "versions_erased": 1}
    assert [m["versions"][0]["key"] for m in as_alice.get("/me/export.json").json()["memories"]] == ["tea"]
    assert columns_containing("turn-kept") != [] and Memory.objects.get(pk=kept.pk).status == "active"


def test_the_console_shows_a_tombstone_without_its_key(as_olga, alice):
    client = as_olga
    doomed = fact_upsert(
        subject=alice, key="diet_rule", value="no pork", category="constraint", actor=Actor.system()
    ).memory
    client.post(f"/console/memories/{doomed.id}/delete", {"reason": "asked"})

    for url in (f"/console/memories/{doomed.id}/", f"/console/subjects/{alice.pk}/", "/console/audit/"):
        page = client.get(url).content.decode()
        assert "diet_rule" not in page and "diet rule" not in page, url
