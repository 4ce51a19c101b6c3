from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError

from apps.memories.models import Memory
from apps.memories.services import Provenance, episode_record

pytestmark = pytest.mark.django_db


def test_it_records_what_happened_in_which_session(alice, bot, support_bot):
    when = datetime(2026, 11, 12, 9, 30, tzinfo=UTC)

    memory = episode_record(
        subject=alice,
        text="退款已提交 for order 8812",
        occurred_at=when,
        session_id="sess-1",
        importance=0.8,
        actor=bot,
        provenance=Provenance(agent=support_bot, session_id="sess-1", turn_id="t-9"),
    ).memory

    assert (memory.kind, memory.category, memory.text) == ("episode", "event", "退款已提交 for order 8812")
    assert (memory.occurred_at, memory.session_id, memory.importance) == (when, "sess-1", 0.8)
    assert memory.source.turn_id == "t-9"


def test_it_defaults_the_time_to_now(alice, bot):
    memory = episode_record(subject=alice, text="Said hello", actor=bot).memory
    assert memory.occurred_at is not None and memory.key == ""


@pytest.mark.parametrize(
    "changes, field",
    [({"text": " "}, "text"), ({"category": "preference"}, "category"), ({"importance": 2}, "importance")],
)
def test_it_rejects_bad_episodes_and_stores_nothing(alice, bot, changes, field):
    with pytest.raises(ValidationError) as error:
        episode_record(**{"subject": alice, "text": "Said hello", "actor": bot, **changes})
    assert field in error.value.message_dict
    assert not Memory.objects.exists()
