"""Bad input gets the documented status and error shape, and the database is unchanged."""

import json

import pytest

from apps.audit.models import AuditEvent
from apps.memories.models import Memory

pytestmark = pytest.mark.django_db

GOOD = {"key": "tone", "value": "formal", "category": "preference"}


def database_state():
    return Memory.objects.count(), AuditEvent.objects.count()


@pytest.mark.parametrize(
    "body, field",
    [
        ({**GOOD, "confidence": "very"}, "confidence"),
        ({**GOOD, "pinned": "perhaps"}, "pinned"),
        ({**GOOD, "category": "mood"}, "category"),
        ({**GOOD, "category": "event"}, "category"),
        ({**GOOD, "confidence": 1.2}, "confidence"),
        ({**GOOD, "confidence": -0.1}, "confidence"),
        ({**GOOD, "key": ""}, "key"),
        ({**GOOD, "key": "!!!"}, "key"),
        ({"value": "formal", "category": "preference"}, "key"),
        ({**GOOD, "metadata": ["not", "an", "object"]}, "metadata"),
        ({**GOOD, "metadata": {"x": "nul\u0000char"}}, "metadata"),
        ({**GOOD, "expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
        ({**GOOD, "expires_at": "next tuesday"}, "expires_at"),
        ({**GOOD, "value": "a\u0000b"}, "value"),
    ],
)
def test_invalid_fact_fields_get_400_field_by_field(api, fact, body, field):
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", body, format="json")

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid" and field in error["fields"]
    assert database_state() == before


@pytest.mark.parametrize(
    "path, body",
    [
        (
            "/api/v1/subjects/alice/facts",
            '{"key": "tone", "value": "formal", "category": "preference", "metadata": {"x": 1e400}}',
        ),
        (
            "/api/v1/subjects/alice/facts",
            '{"key": "tone", "value": "formal", "category": "preference", "metadata": {"x": [1, -1e400]}}',
        ),
        ("/api/v1/subjects/alice/episodes", '{"text": "Asked about a refund", "metadata": {"a": {"b": 1e999}}}'),
    ],
)
def test_a_number_too_large_for_a_float_in_metadata_gets_400_not_500(api, fact, path, body):
    before = database_state()

    response = api.post(path, body, content_type="application/json")

    assert response.status_code == 400, response.content
    assert "finite" in str(response.json()["error"]["fields"]["metadata"])
    assert database_state() == before


@pytest.mark.parametrize("field", ["confidence", "importance"])
def test_a_non_finite_score_gets_400(api, fact, field):
    body = f'{{"key": "tone", "value": "formal", "category": "preference", "{field}": 1e400}}'
    response = api.post("/api/v1/subjects/alice/facts", body, content_type="application/json")

    assert response.status_code == 400 and field in response.json()["error"]["fields"]


def nested(depth: int) -> dict:
    value: object = "leaf"
    for level in range(depth):
        value = {f"level{level}": value}
    return value


@pytest.mark.parametrize(
    "metadata, words",
    [
        ({f"k{n}": n for n in range(65)}, "64 keys"),
        ({"tags": [str(n) for n in range(4000)]}, "64 keys"),
        (nested(5), "4 levels"),
        ({"note": "x" * 8001}, "8000 characters"),
        ({f"k{n}": "y" * 200 for n in range(41)}, "8000 characters"),
    ],
)
def test_oversized_metadata_gets_400_with_a_field_message(api, fact, metadata, words):
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", {**GOOD, "metadata": metadata}, format="json")

    assert response.status_code == 400, response.content
    assert words in str(response.json()["error"]["fields"]["metadata"])
    assert database_state() == before


def test_metadata_at_the_limits_is_accepted(api):
    for metadata in ({f"k{n}": n for n in range(64)}, nested(4), {"note": "x" * 7996}):
        response = api.post(
            "/api/v1/subjects/alice/episodes", {"text": "Asked about a refund", "metadata": metadata}, format="json"
        )
        assert response.status_code == 201, response.content


def test_the_metadata_limits_are_settings(api, settings):
    settings.METADATA_MAX_KEYS, settings.METADATA_MAX_DEPTH, settings.METADATA_MAX_CHARS = 2, 1, 10

    assert (
        api.post(
            "/api/v1/subjects/alice/facts", {**GOOD, "metadata": {"a": 1, "b": 2, "c": 3}}, format="json"
        ).status_code
        == 400
    )
    assert (
        api.post("/api/v1/subjects/alice/facts", {**GOOD, "metadata": {"a": {"b": 1}}}, format="json").status_code
        == 400
    )
    assert (
        api.post("/api/v1/subjects/alice/facts", {**GOOD, "metadata": {"a": "b" * 10}}, format="json").status_code
        == 400
    )
    assert api.post("/api/v1/subjects/alice/facts", {**GOOD, "metadata": {"a": "b"}}, format="json").status_code == 201


def test_an_oversize_body_gets_413(api, fact, settings):
    settings.API_MAX_BODY_BYTES = 2048
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", {**GOOD, "value": "x" * 5000}, format="json")

    assert response.status_code == 413 and response.json()["error"]["code"] == "payload_too_large"
    assert database_state() == before


def test_a_body_that_is_not_json_gets_400(api, fact):
    before = database_state()
    response = api.post("/api/v1/subjects/alice/facts", "{not json", content_type="application/json")

    assert response.status_code == 400 and response.json()["error"]["code"] == "parse_error"
    assert database_state() == before


def test_deeply_nested_json_is_a_clear_400_not_a_crash(api, fact):
    response = api.post("/api/v1/subjects/alice/facts", "[" * 50000 + "]" * 50000, content_type="application/json")
    assert response.status_code in (400, 413)


def test_a_body_of_another_media_type_gets_415(api, fact):
    before = database_state()
    response = api.post("/api/v1/subjects/alice/facts", json.dumps(GOOD), content_type="text/plain")

    assert response.status_code == 415 and response.json()["error"]["code"] == "unsupported_media_type"
    assert database_state() == before


def test_an_invalid_subject_id_on_write_gets_400(api):
    response = api.post(f"/api/v1/subjects/{'x' * 201}/facts", GOOD, format="json")
    assert response.status_code == 400 and "external_id" in response.json()["error"]["fields"]


def test_a_write_refused_by_the_pii_policy_gets_422_naming_the_type(api, fact, settings):
    settings.PII_REJECT_ENTITIES = ["CN_RESIDENT_ID"]
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", {**GOOD, "value": "身份证 11010519491231002X"}, format="json")

    assert response.status_code == 422
    assert response.json()["error"]["entity_types"] == ["CN_RESIDENT_ID"]
    assert "11010519491231002X" not in response.content.decode()
    assert database_state() == before


def test_an_unknown_url_under_the_api_is_a_json_404(api):
    response = api.get("/api/v1/nothing-here")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_wrong_method_gets_405_in_the_same_shape(api, fact):
    response = api.put(f"/api/v1/memories/{fact['id']}", GOOD, format="json")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "body",
    [{}, {"value": "a", "text": "b"}, {"confidence": 3}, {"value": ""}],
)
def test_invalid_corrections_get_400(api, fact, body):
    before = database_state()
    assert api.patch(f"/api/v1/memories/{fact['id']}", body, format="json").status_code == 400
    assert database_state() == before


@pytest.mark.parametrize("query", ["kind=thing", "category=mood", "status=gone", "limit=abc"])
def test_invalid_list_filters_get_400(api, fact, query):
    response = api.get(f"/api/v1/subjects/alice/memories?{query}")
    assert response.status_code in (400, 200)
    if "limit" not in query:
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
