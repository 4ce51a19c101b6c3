"""Selectors given workspace A never return rows of workspace B."""

import pytest

from apps.memories import selectors
from apps.memories.services import episode_record, fact_upsert, memory_correct
from tests.factories import field_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def carols_fact(carol):
    from apps.audit.services import Actor

    return fact_upsert(subject=carol, key="tea", value="jasmine", category="preference", actor=Actor.system()).memory


def test_a_subject_is_found_only_in_its_own_workspace(acme, globex, alice, carol):
    assert selectors.subject_get(workspace=acme, external_id="alice") == alice
    assert selectors.subject_get(workspace=acme, external_id="carol") is None
    assert selectors.subject_get(workspace=globex, external_id="alice") is None


def test_a_subject_is_read_with_the_same_fields_and_workspace_as_the_orm_reads_them(
    acme, alice, django_assert_num_queries
):
    from apps.accounts.models import Subject

    orm = Subject.objects.select_related("workspace").get(pk=alice.pk)
    with django_assert_num_queries(1):
        subject = selectors.subject_get(workspace=acme, external_id="alice")
        assert subject is not None
        assert (field_values(subject), field_values(subject.workspace)) == (
            field_values(orm),
            field_values(orm.workspace),
        )


def test_a_memory_of_another_workspace_is_not_found(acme, globex, carols_fact):
    assert selectors.memory_get(workspace=acme, memory_id=carols_fact.id) is None
    assert selectors.memory_get(workspace=globex, memory_id=carols_fact.id) == carols_fact
    assert selectors.memory_get(workspace=acme, memory_id="not-a-uuid") is None


def test_lists_and_histories_stay_inside_the_workspace(acme, globex, alice, carol, bot, carols_fact):
    fact_upsert(subject=alice, key="tea", value="green", category="preference", actor=bot)

    assert list(selectors.memory_list(workspace=acme, subject=carol)) == []
    assert list(selectors.memory_history(workspace=acme, memory=carols_fact)) == []
    assert list(selectors.memory_audit_events(workspace=acme, memory=carols_fact)) == []
    assert [m.value for m in selectors.memory_list(workspace=globex, subject=carol)] == ["jasmine"]


def test_active_memories_are_listed_newest_first_with_filters(acme, alice, bot):
    old = fact_upsert(subject=alice, key="tea", value="green", category="preference", actor=bot).memory
    memory_correct(memory=old, content="black", actor=bot)
    episode_record(subject=alice, text="Ordered tea", session_id="s1", actor=bot)

    assert [m.text for m in selectors.memory_list(workspace=acme, subject=alice)] == ["Ordered tea", "tea: black"]
    assert [m.text for m in selectors.memory_list(workspace=acme, subject=alice, kind="profile")] == ["tea: black"]
    assert [m.text for m in selectors.memory_list(workspace=acme, subject=alice, session_id="s1")] == ["Ordered tea"]
    everything = selectors.memory_list(workspace=acme, subject=alice, statuses=("active", "superseded"))
    assert everything.count() == 3
