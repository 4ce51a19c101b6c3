"""A person's correction is their own: its source is the portal and the person, with full
confidence — not the agent's conversation it replaced."""

import pytest

from apps.accounts.models import Agent
from apps.memories.models import Memory
from apps.memories.services import Provenance
from tests.factories import fact

pytestmark = pytest.mark.django_db


@pytest.fixture
def learned_city(alice):
    """Alice's city, learned by Support Bot at 80 % confidence from what she said."""
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    return fact(
        alice,
        "city",
        "Beijing",
        category="fact",
        confidence=0.8,
        provenance=Provenance(agent=bot, session_id="s-1", turn_id="t-1", excerpt="I live in Beijing"),
    )


def correct(as_alice, memory, value: str) -> Memory:
    response = as_alice.post(f"/me/memories/{memory.id}/correct", {"value": value})
    assert response.status_code == 302, response.content
    return Memory.objects.get(lineage=memory.lineage, status="active")


def test_a_persons_correction_is_its_own_source_with_full_confidence(as_alice, learned_city):
    corrected = correct(as_alice, learned_city, "Hangzhou")

    source = corrected.source
    assert (source.channel, source.actor_type, source.agent, source.excerpt) == ("portal", "end_user", None, "")
    assert (source.session_id, source.turn_id) == ("", "")
    assert corrected.confidence == 1.0
    learned_city.refresh_from_db()
    assert learned_city.source.agent.name == "Support Bot", "the earlier version keeps where it came from"


def test_the_details_page_credits_the_person_not_the_agents_conversation(as_alice, learned_city):
    corrected = correct(as_alice, learned_city, "Hangzhou")

    page = as_alice.get(f"/me/memories/{corrected.id}/").content.decode()
    source = page.split('id="source-heading"')[1].split("</section>")[0]
    assert "You corrected this" in source
    assert "I live in Beijing" not in source and "Support Bot" not in source


def test_the_export_credits_the_correction_to_the_person(as_alice, learned_city):
    correct(as_alice, learned_city, "Hangzhou")

    page = as_alice.get("/me/export").content.decode()
    versions = as_alice.get("/me/export.json").json()["memories"][0]["versions"]

    latest = page.split("Version 2")[1].split("</li>")[0]
    assert "from a conversation with Support Bot" not in latest and "corrected by you" in latest
    assert "from a conversation with Support Bot" in page.split("Version 2")[0].split("Version 1")[-1]
    assert versions[-1]["source"]["agent"] is None
    assert (versions[-1]["source"]["channel"], versions[-1]["source"]["actor_type"]) == ("portal", "end_user")
    assert versions[-1]["confidence"] == 1.0


def test_an_agents_update_without_a_turn_keeps_the_agent_as_source(as_alice, alice):
    from apps.audit.services import Actor
    from apps.memories.services import fact_upsert

    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    fact_upsert(subject=alice, key="city", value="Beijing", category="fact", actor=Actor.agent(bot))
    moved = fact_upsert(subject=alice, key="city", value="Hangzhou", category="fact", actor=Actor.agent(bot)).memory

    page = as_alice.get(f"/me/memories/{moved.id}/").content.decode()
    assert moved.source is not None and moved.source.agent == bot
    assert "No conversation is recorded" not in page and "Support Bot" in page
