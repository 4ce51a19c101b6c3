"""An event the assistant confirms again in other words is one memory, not two: the turn's new
episode is compared with the person's stored episodes the way the duplicate threshold was
calibrated (passage against passage, bench/bench_embeddings.py), and never merges when the
numbers differ."""

import pytest

from apps.memories.models import Memory

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = "/api/v1/subjects/alice/turns"


def confirm(api, turn_id: str, assistant_message: str) -> dict:
    response = api.post(
        TURNS,
        {"turn_id": turn_id, "session_id": "s-1", "user_message": "好的", "assistant_message": assistant_message},
        format="json",
    )
    assert response.status_code == 202, response.content
    return api.get(f"/api/v1/ingests/{response.json()['ingest_id']}").json()


def episodes(subject) -> list[str]:
    return sorted(
        Memory.objects.filter(subject=subject, kind=Memory.Kind.EPISODE, status=Memory.Status.ACTIVE).values_list(
            "text", flat=True
        )
    )


@pytest.mark.parametrize(
    "first, again",
    [
        ("Booked a table for two at 7pm on Friday.", "I've booked your table for two at 7pm this Friday."),
        ("已为您预约了周五下午3点的牙医。", "已经帮您预约好了周五下午3点的牙医。"),
    ],
)
def test_an_event_confirmed_again_in_other_words_is_kept_once(api, alice, first, again):
    confirm(api, "t-1", first)

    status = confirm(api, "t-2", again)

    assert len(episodes(alice)) == 1, episodes(alice)
    assert "duplicate" in [s["reason"] for s in status["skipped"]], status["skipped"]


def test_events_that_differ_in_a_number_are_both_kept(api, alice):
    confirm(api, "t-1", "Deployed v2.3.1 to production.")

    confirm(api, "t-2", "Deployed v2.3.2 to production.")

    assert len(episodes(alice)) == 2


def test_a_different_event_of_the_same_session_is_kept_beside_the_first(api, alice):
    confirm(api, "t-1", "Booked a table for two at 7pm on Friday.")

    confirm(api, "t-2", "Sent the invoice to your email.")

    assert len(episodes(alice)) == 2
