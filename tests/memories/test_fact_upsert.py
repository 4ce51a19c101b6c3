import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.memories import selectors
from apps.memories.models import Memory
from apps.memories.services import Outcome, Provenance, fact_upsert, normalize_key
from apps.privacy import PIIRejected

pytestmark = pytest.mark.django_db


def active_values(subject, key):
    return sorted(Memory.objects.filter(subject=subject, key=key, status="active").values_list("value", flat=True))


def test_it_creates_a_profile_fact_with_its_source(alice, bot, support_bot):
    result = fact_upsert(
        subject=alice,
        key="Reply Language",
        value="中文",
        category="preference",
        actor=bot,
        provenance=Provenance(agent=support_bot, session_id="s1", turn_id="t1", excerpt="以后都用中文回复我"),
    )

    memory = result.memory
    assert result.outcome == Outcome.CREATED
    assert (memory.kind, memory.key, memory.value, memory.text) == (
        "profile",
        "reply_language",
        "中文",
        "reply language: 中文",
    )
    assert (memory.status, memory.version, memory.lineage) == ("active", 1, memory.id)
    assert memory.source.agent == support_bot and memory.source.excerpt == "以后都用中文回复我"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("Favourite Food", "favourite_food"),
        ("favourite-food", "favourite_food"),
        ("编程 语言", "编程_语言"),
        ("  ＡＢＣ  ", "abc"),
    ],
)
def test_it_normalizes_keys(raw, expected):
    assert normalize_key(raw) == expected


def test_a_newer_preference_supersedes_the_current_one(alice, bot):
    first = fact_upsert(subject=alice, key="spice", value="likes spicy food", category="preference", actor=bot)
    second = fact_upsert(subject=alice, key="spice", value="不吃辣", category="preference", actor=bot)

    first.memory.refresh_from_db()
    assert second.outcome == Outcome.SUPERSEDED
    assert first.memory.status == "superseded" and first.memory.valid_to is not None
    assert (second.memory.version, second.memory.supersedes_id) == (2, first.memory.id)
    assert active_values(alice, "spice") == ["不吃辣"]


def test_a_less_confident_preference_keeps_the_current_one_and_is_audited(alice, bot):
    fact_upsert(subject=alice, key="tone", value="formal", category="preference", confidence=0.9, actor=bot)
    result = fact_upsert(subject=alice, key="tone", value="casual", category="preference", confidence=0.6, actor=bot)

    assert result.outcome == Outcome.KEPT_EXISTING
    assert active_values(alice, "tone") == ["formal"]
    declined = AuditEvent.objects.get(action="memory.write_declined")
    assert declined.after["value"] == "casual" and declined.memory_id == result.memory.id


def test_a_goal_follows_the_preference_policy(alice, bot):
    fact_upsert(subject=alice, key="target", value="run a marathon", category="goal", confidence=0.9, actor=bot)
    fact_upsert(subject=alice, key="target", value="run 10k", category="goal", confidence=0.5, actor=bot)
    assert active_values(alice, "target") == ["run a marathon"]

    fact_upsert(subject=alice, key="target", value="run 10k", category="goal", confidence=0.95, actor=bot)
    assert active_values(alice, "target") == ["run 10k"]


def test_a_newer_fact_becomes_current_even_when_less_confident_and_history_keeps_the_old(alice, acme, bot):
    old = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", confidence=0.9, actor=bot)
    new = fact_upsert(subject=alice, key="city", value="上海", category="fact", confidence=0.7, actor=bot)

    assert new.outcome == Outcome.SUPERSEDED
    assert active_values(alice, "city") == ["上海"]
    history = selectors.memory_history(workspace=acme, memory=new.memory)
    assert [(m.value, m.status) for m in history] == [("Beijing", "superseded"), ("上海", "active")]
    assert old.memory.lineage == new.memory.lineage


def test_constraints_accumulate_and_a_newer_one_never_drops_an_older_one(alice, bot):
    fact_upsert(subject=alice, key="diet", value="no peanuts", category="constraint", actor=bot)
    fact_upsert(subject=alice, key="diet", value="不吃辣", category="constraint", actor=bot)

    assert active_values(alice, "diet") == ["no peanuts", "不吃辣"]


def test_writing_the_same_value_again_refreshes_it_without_a_new_version(alice, bot):
    first = fact_upsert(
        subject=alice, key="editor", value="Dark  Mode", category="preference", confidence=0.7, actor=bot
    )
    again = fact_upsert(
        subject=alice, key="editor", value="dark mode", category="preference", confidence=0.9, actor=bot
    )
    lower = fact_upsert(
        subject=alice, key="editor", value="DARK MODE", category="preference", confidence=0.5, actor=bot
    )

    assert again.outcome == lower.outcome == Outcome.UNCHANGED
    assert Memory.objects.filter(subject=alice, key="editor").count() == 1
    memory = Memory.objects.get(subject=alice, key="editor")
    assert memory.confidence == 0.9 and memory.version == 1
    assert memory.updated_at > first.memory.updated_at


def test_writing_an_existing_constraint_again_adds_nothing(alice, bot):
    fact_upsert(subject=alice, key="diet", value="no peanuts", category="constraint", actor=bot)
    result = fact_upsert(subject=alice, key="diet", value="No  peanuts", category="constraint", actor=bot)

    assert result.outcome == Outcome.UNCHANGED
    assert active_values(alice, "diet") == ["no peanuts"]


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"category": "event"}, "category"),
        ({"category": "mood"}, "category"),
        ({"confidence": 1.5}, "confidence"),
        ({"importance": -0.1}, "importance"),
        ({"key": "  !!! "}, "key"),
        ({"value": "   "}, "value"),
        ({"value": "x" * 2001}, "value"),
    ],
)
def test_it_rejects_bad_input_field_by_field_and_stores_nothing(alice, bot, changes, field):
    arguments = {"subject": alice, "key": "tone", "value": "formal", "category": "preference", "actor": bot}

    with pytest.raises(ValidationError) as error:
        fact_upsert(**{**arguments, **changes})

    assert field in error.value.message_dict
    assert not Memory.objects.exists() and not AuditEvent.objects.exists()


def test_pii_configured_for_rejection_refuses_the_write(alice, bot, settings):
    settings.PII_REJECT_ENTITIES = ["CN_RESIDENT_ID"]

    with pytest.raises(PIIRejected) as error:
        fact_upsert(subject=alice, key="id", value="身份证 11010519491231002X", category="fact", actor=bot)

    assert error.value.entity_types == ["CN_RESIDENT_ID"]
    assert not Memory.objects.exists()
