"""Idempotency records belong to one agent and one endpoint and remember a digest of the request:
another agent's write with the same turn id is its own, an episode never replays a fact, and a key
reused for a different body is refused with 409."""

import pytest

from apps.accounts.models import Agent
from apps.audit.models import AuditEvent
from apps.memories.models import IdempotencyRecord, Memory
from tests.api.test_auth import assert_error
from tests.conftest import client_with_key
from tests.dbscan import columns_containing

FACTS, EPISODES = "/api/v1/subjects/alice/facts", "/api/v1/subjects/alice/episodes"
TONE = {"key": "tone", "value": "formal", "category": "preference", "turn_id": "turn-7"}


@pytest.fixture
def sales_bot(acme) -> Agent:
    return Agent.objects.create(workspace=acme, name="Sales Bot")


@pytest.fixture
def sales_api(sales_bot):
    return client_with_key(sales_bot)


def test_another_agents_write_with_the_same_turn_id_is_its_own(api, sales_api):
    first = api.post(FACTS, TONE, format="json")
    second = sales_api.post(FACTS, {**TONE, "value": "casual"}, format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    body = second.json()
    assert (body["value"], body["replayed"], body["outcome"]) == ("casual", False, "superseded")
    assert body["source"]["agent"] == "Sales Bot"


def test_another_agents_write_with_the_same_idempotency_key_is_its_own(api, sales_api):
    body = {"key": "tone", "value": "formal", "category": "preference"}
    api.post(FACTS, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    second = sales_api.post(FACTS, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert (second.json()["replayed"], second.json()["outcome"]) == (False, "unchanged")  # its own write, not a replay
    assert AuditEvent.objects.filter(action="memory.reaffirmed", actor_name="Sales Bot").exists()


def test_an_episode_with_the_idempotency_key_of_a_fact_is_recorded_as_an_episode(api):
    fact = api.post(
        FACTS, {"key": "tone", "value": "formal", "category": "preference"}, format="json", HTTP_IDEMPOTENCY_KEY="k-2"
    )
    episode = api.post(EPISODES, {"text": "Asked for a refund"}, format="json", HTTP_IDEMPOTENCY_KEY="k-2")

    assert episode.status_code == 201
    assert (episode.json()["kind"], episode.json()["replayed"]) == ("episode", False)
    assert episode.json()["id"] != fact.json()["id"]


def test_a_retry_with_the_same_body_returns_the_first_result(api):
    first = api.post(FACTS, TONE, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    retry = api.post(FACTS, TONE, format="json", HTTP_IDEMPOTENCY_KEY="k-3")

    assert retry.json()["id"] == first.json()["id"] and retry.json()["replayed"] is True
    assert Memory.objects.count() == 1


@pytest.mark.parametrize("header", ["k-4", ""])
def test_a_key_reused_with_a_different_body_is_refused_with_409(api, header):
    headers = {"HTTP_IDEMPOTENCY_KEY": header} if header else {}
    api.post(FACTS, TONE, format="json", **headers)
    reused = api.post(FACTS, {**TONE, "value": "casual"}, format="json", **headers)

    assert_error(reused, 409, "idempotency_key_reused")
    assert "different request" in reused.json()["error"]["message"]
    assert Memory.objects.get().value == "formal"


def test_records_keep_the_agent_the_endpoint_and_a_digest_of_the_body_never_the_body(api, support_bot):
    api.post(FACTS, {**TONE, "value": "speaks like a pirate"}, format="json", HTTP_IDEMPOTENCY_KEY="k-5")

    record = IdempotencyRecord.objects.get()
    assert (record.agent, record.endpoint, len(record.request_digest)) == (support_bot, "fact", 64)
    assert [c for c in columns_containing("pirate") if c.startswith("memories_idempotencyrecord")] == []
    assert [c for c in columns_containing("k-5") if c.startswith("memories_idempotencyrecord")] == []
