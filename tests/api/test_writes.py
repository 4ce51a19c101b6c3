import pytest

from apps.audit.models import AuditEvent
from apps.memories.models import Memory
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db

FACTS = "/api/v1/subjects/alice/facts"


def test_writing_a_fact_creates_the_subject_and_returns_the_memory(api):
    response = api.post(
        FACTS,
        {
            "key": "Reply Language",
            "value": "中文",
            "category": "preference",
            "session_id": "s1",
            "turn_id": "t1",
            "confidence": 0.9,
        },
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    expected_fields = {
        "id",
        "kind",
        "category",
        "key",
        "value",
        "text",
        "confidence",
        "importance",
        "pinned",
        "status",
        "version",
        "supersedes",
        "valid_from",
        "valid_to",
        "expires_at",
        "session_id",
        "occurred_at",
        "source",
        "redactions",
        "created_at",
        "updated_at",
    }
    assert expected_fields <= body.keys()
    assert (body["key"], body["value"], body["status"], body["version"], body["outcome"]) == (
        "reply_language",
        "中文",
        "active",
        1,
        "created",
    )
    assert (body["source"]["agent"], body["source"]["session_id"], body["source"]["turn_id"]) == (
        "Support Bot",
        "s1",
        "t1",
    )
    assert AuditEvent.objects.get(action="memory.created").actor_name == "Support Bot"


def test_rewriting_the_current_value_is_a_200_no_op(api, fact):
    response = api.post(FACTS, {"key": "reply language", "value": "中文", "category": "preference"}, format="json")

    assert response.status_code == 200 and response.json()["outcome"] == "unchanged"
    assert response.json()["id"] == fact["id"]
    assert Memory.objects.count() == 1


def test_a_newer_value_supersedes_with_201_and_a_new_version(api, fact):
    response = api.post(FACTS, {"key": "reply_language", "value": "English", "category": "preference"}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["outcome"], body["version"], body["supersedes"]) == ("superseded", 2, fact["id"])


def test_pii_in_value_and_text_never_reaches_the_database_and_the_response_names_the_types(api):
    fact = api.post(
        FACTS, {"key": "contact", "value": "手机 13812345678 or zhang.san@qq.com", "category": "fact"}, format="json"
    ).json()
    episode = api.post(
        "/api/v1/subjects/alice/episodes", {"text": "Refunded card 6222020200112233446"}, format="json"
    ).json()

    assert fact["redacted"] == {"CN_MOBILE": 1, "EMAIL_ADDRESS": 1}
    assert fact["value"] == "手机 <CN_MOBILE> or <EMAIL_ADDRESS>"
    assert episode["redacted"] == {"CN_BANK_CARD": 1} and episode["text"] == "Refunded card <CN_BANK_CARD>"
    for raw in ("13812345678", "zhang.san@qq.com", "6222020200112233446"):
        assert columns_containing(raw) == []


def test_recording_an_episode(api):
    response = api.post(
        "/api/v1/subjects/alice/episodes",
        {
            "text": "退款已提交 for order 8812",
            "occurred_at": "2026-11-12T09:30:00+08:00",
            "session_id": "s-9",
            "importance": 0.8,
        },
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["kind"], body["category"], body["occurred_at"], body["session_id"]) == (
        "episode",
        "event",
        "2026-11-12T01:30:00Z",
        "s-9",
    )


@pytest.mark.parametrize(
    "path, body",
    [
        (FACTS, {"key": "tone", "value": "formal", "category": "preference", "turn_id": "turn-7"}),
        ("/api/v1/subjects/alice/episodes", {"text": "Asked for a refund", "turn_id": "turn-7"}),
    ],
)
def test_the_same_turn_id_twice_creates_one_memory_and_returns_the_first_result(api, path, body):
    first = api.post(path, body, format="json")
    second = api.post(path, body, format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json()["id"] == first.json()["id"] and second.json()["replayed"] is True
    assert Memory.objects.count() == 1
    assert AuditEvent.objects.filter(action__startswith="memory.").count() == 1


def test_one_turn_may_write_several_different_facts(api):
    api.post(FACTS, {"key": "diet", "value": "vegetarian", "category": "constraint", "turn_id": "t1"}, format="json")
    api.post(FACTS, {"key": "city", "value": "Berlin", "category": "fact", "turn_id": "t1"}, format="json")

    assert Memory.objects.count() == 2


def test_the_idempotency_key_header_makes_a_retry_safe(api):
    body = {"key": "tone", "value": "formal", "category": "preference"}
    first = api.post(FACTS, body, format="json", HTTP_IDEMPOTENCY_KEY="abc-123")
    retry = api.post(FACTS, body, format="json", HTTP_IDEMPOTENCY_KEY="abc-123")
    other = api.post(FACTS, {**body, "value": "casual"}, format="json", HTTP_IDEMPOTENCY_KEY="abc-456")

    assert retry.json()["id"] == first.json()["id"] and retry.json()["value"] == "formal"
    assert other.json()["outcome"] == "superseded"


def test_numbers_in_metadata_that_are_personal_data_are_redacted_and_other_numbers_kept(api):
    response = api.post(
        FACTS,
        {
            "key": "contact",
            "value": "prefers phone calls",
            "category": "preference",
            "metadata": {
                "phone": 13812345678,
                "card": 4111111111111111,
                "priority": 3,
                "score": 0.75,
                "nested": [{"landline": 2162345678, "order": 2162345678}],
            },
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    memory = Memory.objects.get(id=response.json()["id"])
    assert memory.metadata == {
        "phone": "<CN_MOBILE>",
        "card": "<CN_BANK_CARD>",
        "priority": 3,
        "score": 0.75,
        "nested": [{"landline": "<PHONE_NUMBER>", "order": 2162345678}],
    }
    assert columns_containing("13812345678") == [] and columns_containing("4111111111111111") == []
    assert response.json()["redactions"] == {"CN_MOBILE": 1, "CN_BANK_CARD": 1, "PHONE_NUMBER": 1}
