"""Conversation turns are not self-contained: the reply that answers a question often repeats none
of its words ("He said Lisbon"). Recall lifts an episode by the relevance of the turn right before
or after it in the same session (RECALL_NEIGHBOUR_WEIGHT), and by nothing else."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.audit.services import Actor
from apps.memories.recall import recall
from apps.memories.services import episode_record, memory_forget

pytestmark = pytest.mark.django_db(transaction=True)

START = timezone.now() - timedelta(days=2)


def conversation(subject, session_id, lines, start=START):
    """Episodes of one session, a minute apart, in order."""
    return [
        episode_record(
            subject=subject,
            text=line,
            session_id=session_id,
            occurred_at=start + timedelta(minutes=i),
            actor=Actor.system(),
        ).memory
        for i, line in enumerate(lines)
    ]


def by_text(result):
    return {c.memory.text: c for c in result.memories}


def test_a_reply_is_lifted_by_the_question_it_answers_in_the_same_session(alice, settings):
    question, reply = conversation(
        alice,
        "chat-1",
        [
            "Which city did Sam fly to for the marathon?",
            "He said Lisbon, and the course ran along the river.",
        ],
    )
    settings.RECALL_NEIGHBOUR_WEIGHT = 0.3

    found = by_text(recall(workspace=alice.workspace, subject=alice, query="Sam marathon city", top_k=10))

    assert found[reply.text].components["neighbour"] == pytest.approx(
        0.3 * found[question.text].components["relevance"], abs=1e-3
    )
    assert found[reply.text].components["neighbour"] > 0


def test_turns_of_another_session_or_with_a_turn_between_are_not_neighbours(alice, settings):
    settings.RECALL_NEIGHBOUR_WEIGHT = 0.3
    (question,) = conversation(alice, "chat-1", ["我问小王去哪个城市跑马拉松"])
    (other_session,) = conversation(alice, "chat-2", ["他说是里斯本"], start=START + timedelta(seconds=30))
    _, _, two_later = conversation(
        alice, "chat-3", ["我问小王去哪个城市跑马拉松", "天气不错", "他说是里斯本"], start=START + timedelta(hours=1)
    )

    found = by_text(recall(workspace=alice.workspace, subject=alice, query="小王 马拉松 城市", top_k=10))

    assert found[question.text].components["relevance"] > 0
    by_id = {c.memory.id: c for c in found.values()}
    for memory in (other_session, two_later):
        assert memory.id not in by_id or by_id[memory.id].components["neighbour"] == 0


def test_a_forgotten_turn_lifts_its_neighbour_no_longer(alice, settings):
    settings.RECALL_NEIGHBOUR_WEIGHT = 0.3
    question, reply = conversation(
        alice,
        "chat-1",
        [
            "Which city did Sam fly to for the marathon?",
            "He said Lisbon, and the course ran along the river.",
        ],
    )
    memory_forget(memory=question, actor=Actor.system(), reason="user asked")

    found = by_text(recall(workspace=alice.workspace, subject=alice, query="Sam marathon city", top_k=10))

    assert question.text not in found
    assert reply.text not in found or found[reply.text].components["neighbour"] == 0


def test_without_a_neighbour_weight_the_score_is_the_plain_weighted_sum(alice, settings):
    settings.RECALL_NEIGHBOUR_WEIGHT = 0.0
    conversation(alice, "chat-1", ["Which city did Sam fly to for the marathon?", "He said Lisbon."])

    result = recall(workspace=alice.workspace, subject=alice, query="Sam marathon city", top_k=10)

    assert all(c.components["neighbour"] == 0 for c in result.memories)


def test_turns_without_a_session_id_are_neighbours_when_minutes_apart_not_hours(alice, settings):
    settings.RECALL_NEIGHBOUR_WEIGHT = 0.3
    question, reply = conversation(alice, "", ["Which city did Sam fly to for the marathon?", "He said Lisbon."])
    late_question, late_reply = [
        episode_record(
            subject=alice, text=text, occurred_at=START + timedelta(hours=hours), actor=Actor.system()
        ).memory
        for text, hours in (("Did Sam run another marathon in spring?", 5), ("Yes, in Porto.", 9))
    ]

    found = by_text(recall(workspace=alice.workspace, subject=alice, query="Sam marathon", top_k=10))

    assert found[reply.text].components["neighbour"] > 0
    assert late_reply.text not in found or found[late_reply.text].components["neighbour"] == 0
