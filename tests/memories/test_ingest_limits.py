"""One turn cannot become a thousand writes: repeated proposals are written once, a turn writes at
most INGEST_MAX_PROPOSALS_PER_TURN memories, and every memory a turn creates counts against the
agent's write throttle."""

import pytest
from django.core.cache import cache

from apps.audit.models import AuditEvent
from apps.memories import ingest
from apps.memories.extraction import Extraction, Proposal
from apps.memories.models import Memory

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = "/api/v1/subjects/alice/turns"
REPEATED = "I live in Berlin. I don't eat spicy food. My favourite color is blue. "


class ManyFacts:
    """An extractor (an LLM, say) that proposes `count` different facts for any turn."""

    name, version = "many", "1"

    def __init__(self, count: int) -> None:
        self.count = count

    def extract(self, turn) -> Extraction:
        return Extraction(
            proposals=[
                Proposal(
                    kind="profile",
                    category="fact",
                    key=f"thing {n}",
                    value=f"value {n}",
                    confidence=0.9,
                    evidence=f"thing {n} is value {n}",
                )
                for n in range(self.count)
            ],
            skipped=[],
        )


@pytest.fixture
def clean_throttle():
    cache.clear()
    yield
    cache.clear()


def post_turn(api, turn_id: str, message: str) -> dict:
    response = api.post(TURNS, {"turn_id": turn_id, "user_message": message}, format="json")
    assert response.status_code == 202, response.content
    return api.get(f"/api/v1/ingests/{response.json()['ingest_id']}").json()


def test_a_long_turn_of_repeated_sentences_writes_each_memory_once(api):
    message = (REPEATED * 200)[:8000]

    status = post_turn(api, "t-repeat", message)

    assert status["status"] == "done", status
    assert sorted(Memory.objects.values_list("key", flat=True)) == ["city", "diet", "favorite_color"]
    assert AuditEvent.objects.filter(action__startswith="memory.").count() == 3
    assert {s["reason"] for s in status["skipped"]} <= {"repeated"}
    assert len(status["skipped"]) <= 3, "one note per repeated proposal, not one per repetition"


def test_a_turn_writes_at_most_the_configured_number_of_memories(api, settings, monkeypatch):
    settings.INGEST_MAX_PROPOSALS_PER_TURN = 5
    monkeypatch.setattr(ingest, "get_extractor", lambda: ManyFacts(50))

    status = post_turn(api, "t-many", "anything")

    assert Memory.objects.count() == 5
    assert len(status["created"]) == 5
    assert [s["reason"] for s in status["skipped"]] == ["too_many_proposals"]


def test_the_cap_is_twenty_by_default(settings):
    assert settings.INGEST_MAX_PROPOSALS_PER_TURN == 20


def test_each_memory_a_turn_creates_counts_against_the_write_throttle(api, monkeypatch, clean_throttle):
    from apps.api.throttling import PerKeyThrottle

    monkeypatch.setattr(PerKeyThrottle, "THROTTLE_RATES", {"api_read": "1000/min", "api_write": "10/min"})
    monkeypatch.setattr(ingest, "get_extractor", lambda: ManyFacts(8))

    post_turn(api, "t-charged", "anything")  # 1 request + 8 memories = 9 of 10
    allowed = api.post(
        "/api/v1/subjects/alice/facts", {"key": "tone", "value": "formal", "category": "preference"}, format="json"
    )
    refused = api.post(
        "/api/v1/subjects/alice/facts", {"key": "tone", "value": "casual", "category": "preference"}, format="json"
    )

    assert (allowed.status_code, refused.status_code) == (201, 429)
    assert api.get("/api/v1/subjects/alice/memories").status_code == 200, "reads have their own budget"
