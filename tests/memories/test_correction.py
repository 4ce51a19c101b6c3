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

    result = memory_correct(memory=original, content="Hangzhou", reason="moved last month", actor=bot)

    original.refresh_from_db()
    assert result.outcome == Outcome.CORRECTED
    assert (result.memory.value, result.memory.text, result.memory.version) == ("Hangzhou", "city: Hangzhou", 2)
    assert original.status == "superseded" and original.valid_to == result.memory.valid_from
    assert original.value == "Beijing"  # never edited in place


def test_history_returns_every_version_oldest_first(alice, acme, bot):
    v1 = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory
    v2 = memory_correct(memory=v1, content="乌龙茶", actor=bot).memory
    v3 = memory_correct(memory=v2, content="black tea", importance=0.9, actor=bot).memory

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
    memory_correct(memory=v1, content="black tea", actor=bot)

    with pytest.raises(MemoryConflict):
        memory_correct(memory=v1, content="white tea", actor=bot)
    assert Memory.objects.filter(subject=alice).count() == 2


def test_a_correction_that_changes_nothing_is_refused(alice, bot):
    v1 = fact_upsert(subject=alice, key="tea", value="green tea", category="preference", actor=bot).memory

    with pytest.raises(ValidationError):
        memory_correct(memory=v1, content="green tea", actor=bot)


def test_a_facts_content_is_its_value_and_an_episodes_its_text(alice, bot):
    fact = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=bot).memory
    episode = episode_record(subject=alice, text="Asked about a refund", actor=bot).memory

    assert (fact.content_field, fact.content) == ("value", "Beijing")
    assert (episode.content_field, episode.content) == ("text", "Asked about a refund")


def test_a_fact_is_corrected_through_its_content_and_its_text_follows(alice, bot):
    fact = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=bot).memory

    corrected = memory_correct(memory=fact, content="Hangzhou", actor=bot).memory

    assert (corrected.content, corrected.value, corrected.text) == ("Hangzhou", "Hangzhou", "city: Hangzhou")


def test_an_episode_is_corrected_through_its_content_and_keeps_its_moment(alice, bot):
    episode = episode_record(subject=alice, text="Asked about a refund", actor=bot).memory

    corrected = memory_correct(memory=episode, content="Asked about a refund for order 42", actor=bot).memory

    assert corrected.content == corrected.text == "Asked about a refund for order 42" and corrected.value == ""
    assert corrected.occurred_at == episode.occurred_at


@pytest.mark.parametrize(("kind", "field"), [("fact", "value"), ("episode", "text")])
def test_an_empty_correction_is_refused_naming_the_memorys_content_column(alice, bot, kind, field):
    if kind == "fact":
        memory = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=bot).memory
    else:
        memory = episode_record(subject=alice, text="Asked about a refund", actor=bot).memory

    with pytest.raises(ValidationError) as error:
        memory_correct(memory=memory, content="  ", actor=bot)

    assert list(error.value.message_dict) == [field]
    assert Memory.objects.filter(lineage=memory.lineage).count() == 1


def test_a_correction_without_content_changes_only_the_scores(alice, bot):
    fact = fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=bot).memory

    corrected = memory_correct(memory=fact, importance=0.9, actor=bot).memory

    assert (corrected.content, corrected.text, corrected.importance, corrected.version) == (
        "Beijing",
        "city: Beijing",
        0.9,
        2,
    )


def test_a_correction_keeps_the_pin_and_redacts_the_new_value(alice, bot):
    v1 = fact_upsert(subject=alice, key="contact", value="email me", category="preference", actor=bot).memory
    memory_pin(memory=v1, actor=bot)

    result = memory_correct(memory=v1, content="call me at 13812345678", actor=bot)

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
        memory_correct(memory=stored, content="zhang.san@qq.com", actor=bot)

    message = " ".join(refused.value.messages)
    assert "removed before saving" in message and "nothing changed" in message.lower()
    assert "same as the current version" not in message
    assert Memory.objects.filter(lineage=stored.lineage).count() == 1
