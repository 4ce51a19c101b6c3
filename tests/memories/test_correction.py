import pytest
from django.core.exceptions import ValidationError

from apps.memories import selectors
from apps.memories.models import Memory
from apps.memories.services import (
    MemoryConflict,
    Outcome,
    episode_record,
    fact_upsert,
    memory_correct,
    memory_pin,
    memory_unpin,
)

pytestmark = pytest.mark.django_db


def test_a_correction_is_a_new_version_that_supersedes_the_old_row(alice, bot):
    original = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=bot).memory

    result = memory_correct(memory=original, value="Hangzhou", reason="moved last month", actor=bot)

    original.refresh_from_db()
    assert result.outcome == Outcome.CORRECTED
    assert (result.memory.value, result.memory.text, result.memory.version) == ("Hangzhou", "city: Hangzhou", 2)
    assert original.status == "superseded" and original.valid_to == result.memory.valid_from
    assert original.value == "Beijing"  # never edited in place


def test_history_returns_every_version_oldest_first(alice, acme, bot):
    v1 = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory
    v2 = memory_correct(memory=v1, value="乌龙茶", actor=bot).memory
    v3 = memory_correct(memory=v2, value="black tea", importance=0.9, actor=bot).memory

    history = selectors.memory_history(workspace=acme, memory=v1)

    assert [(m.version, m.value, m.status) for m in history] == [
        (1, "green tea", "superseded"),
        (2, "乌龙茶", "superseded"),
        (3, "black tea", "active"),
    ]
    assert [m.supersedes_id for m in history] == [None, v1.id, v2.id]
    assert list(selectors.memory_history(workspace=acme, memory=v3)) == list(history)


def test_correcting_a_superseded_version_is_a_conflict(alice, bot):
    v1 = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory
    memory_correct(memory=v1, value="black tea", actor=bot)

    with pytest.raises(MemoryConflict):
        memory_correct(memory=v1, value="white tea", actor=bot)
    assert Memory.objects.filter(subject=alice).count() == 2


def test_a_correction_that_changes_nothing_is_refused(alice, bot):
    v1 = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory

    with pytest.raises(ValidationError):
        memory_correct(memory=v1, value="green tea", actor=bot)


def test_episodes_are_corrected_through_their_text(alice, bot):
    episode = episode_record(subject=alice, text="Asked about a refund", actor=bot).memory

    with pytest.raises(ValidationError) as error:
        memory_correct(memory=episode, value="x", actor=bot)
    assert "value" in error.value.message_dict

    corrected = memory_correct(memory=episode, text="Asked about a refund for order 42", actor=bot).memory
    assert corrected.text == "Asked about a refund for order 42" and corrected.occurred_at == episode.occurred_at


def test_a_correction_keeps_the_pin_and_redacts_the_new_value(alice, bot):
    v1 = fact_upsert(subject=alice, key="contact", value="email me", category="preference", actor=bot).memory
    memory_pin(memory=v1, actor=bot)

    result = memory_correct(memory=v1, value="call me at 13812345678", actor=bot)

    assert result.memory.pinned
    assert result.memory.value == "call me at <CN_MOBILE>"
    assert result.redactions == {"CN_MOBILE": 1} and result.memory.redactions == {"CN_MOBILE": 1}


def test_pin_and_unpin_change_only_the_flag(alice, bot):
    memory = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory

    assert memory_pin(memory=memory, actor=bot).pinned
    unpinned = memory_unpin(memory=memory, actor=bot)
    assert not unpinned.pinned and unpinned.version == 1
    assert Memory.objects.filter(subject=alice).count() == 1


def test_correcting_a_placeholder_to_the_real_value_says_personal_data_is_removed_and_nothing_changed(alice, bot):
    stored = fact_upsert(subject=alice, key="email", value="zhang.san@qq.com", category="fact", actor=bot).memory
    assert stored.value == "<EMAIL_ADDRESS>"

    with pytest.raises(ValidationError) as refused:
        memory_correct(memory=stored, value="zhang.san@qq.com", actor=bot)

    message = " ".join(refused.value.messages)
    assert "removed before saving" in message and "nothing changed" in message.lower()
    assert "same as the current version" not in message
    assert Memory.objects.filter(lineage=stored.lineage).count() == 1
