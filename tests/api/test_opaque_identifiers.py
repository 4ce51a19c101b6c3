"""Identifier fields are opaque handles: an external id, session id, turn id, Idempotency-Key or
X-Request-ID that holds personal data is refused with 422 `pii_in_identifier`, naming the field;
the value is stored nowhere and nothing already stored changes."""

import pytest

from apps.accounts.models import Subject
from apps.audit.models import AuditEvent
from apps.memories.models import Ingest, Memory, Source
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db

MOBILE, EMAIL, RESIDENT_ID, BANK_CARD = "13812345678", "zhang.san@qq.com", "11010519491231002X", "6222020200112233446"
FACT = {"key": "tone", "value": "formal", "category": "preference"}
EPISODE = {"text": "退款已提交 for order 8812"}
TURN = {"turn_id": "t-1", "user_message": "我不吃辣"}


def database_state():
    return (
        Subject.objects.count(),
        Memory.objects.count(),
        Source.objects.count(),
        Ingest.objects.count(),
        AuditEvent.objects.count(),
    )


def assert_refused(response, field: str, needle: str):
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == "pii_in_identifier"
    assert list(error["fields"]) == [field]
    assert "opaque id" in " ".join(error["fields"][field])
    assert needle not in response.content.decode()
    assert columns_containing(needle) == [], f"{needle!r} was stored"


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("post", "facts", FACT),
        ("post", "episodes", EPISODE),
        ("post", "turns", TURN),
        ("post", "recall", {"query": "tea"}),
        ("post", "portal-link", None),
        ("get", "memories", None),
        ("get", "export", None),
    ],
)
def test_it_refuses_an_external_id_that_holds_a_phone_number(api, method, path, body):
    before = database_state()

    response = getattr(api, method)(f"/api/v1/subjects/{MOBILE}/{path}", body, format="json")

    assert_refused(response, "external_id", MOBILE)
    assert database_state() == before


def test_it_refuses_an_external_id_that_holds_an_email_address(api):
    response = api.get(f"/api/v1/subjects/{EMAIL}")

    assert_refused(response, "external_id", EMAIL)


@pytest.mark.parametrize("path, body", [("facts", FACT), ("episodes", EPISODE), ("turns", TURN)])
def test_it_refuses_a_session_id_that_holds_a_phone_number(api, path, body):
    before = database_state()

    response = api.post(f"/api/v1/subjects/alice/{path}", {**body, "session_id": f"chat-{MOBILE}"}, format="json")

    assert_refused(response, "session_id", MOBILE)
    assert database_state() == before


@pytest.mark.parametrize("path, body", [("facts", FACT), ("episodes", EPISODE), ("turns", TURN)])
def test_it_refuses_a_turn_id_that_holds_a_resident_id(api, path, body):
    before = database_state()

    response = api.post(f"/api/v1/subjects/alice/{path}", {**body, "turn_id": RESIDENT_ID}, format="json")

    assert_refused(response, "turn_id", RESIDENT_ID)
    assert database_state() == before


def test_it_refuses_a_session_id_filter_that_holds_a_bank_card_number(api, fact):
    response = api.get("/api/v1/subjects/alice/memories", {"session_id": BANK_CARD})

    assert_refused(response, "session_id", BANK_CARD)


def test_it_refuses_an_idempotency_key_that_holds_an_email_address(api):
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", FACT, format="json", HTTP_IDEMPOTENCY_KEY=EMAIL)

    assert_refused(response, "Idempotency-Key", EMAIL)
    assert database_state() == before


def test_it_refuses_a_request_id_that_holds_a_phone_number(api):
    before = database_state()

    response = api.post("/api/v1/subjects/alice/facts", FACT, format="json", HTTP_X_REQUEST_ID=MOBILE)

    assert_refused(response, "X-Request-ID", MOBILE)
    assert database_state() == before


def test_the_portal_refuses_a_request_id_that_holds_a_phone_number_too(client):
    response = client.get("/me/", HTTP_X_REQUEST_ID=MOBILE)

    assert response.status_code == 422
    assert MOBILE not in response.content.decode() and MOBILE not in response["X-Request-ID"]


def test_it_names_every_refused_identifier_at_once(api):
    response = api.post("/api/v1/subjects/alice/turns", {**TURN, "session_id": MOBILE, "turn_id": EMAIL}, format="json")

    assert response.status_code == 422
    assert set(response.json()["error"]["fields"]) == {"session_id", "turn_id"}
    assert set(response.json()["error"]["entity_types"]) == {"CN_MOBILE", "EMAIL_ADDRESS"}


def test_a_refused_identifier_leaves_what_is_stored_as_it_was(api, fact):
    before = database_state()

    response = api.post(
        "/api/v1/subjects/alice/facts", {**FACT, "value": "casual", "session_id": MOBILE}, format="json"
    )

    assert response.status_code == 422
    assert database_state() == before
    assert Memory.objects.get(pk=fact["id"]).status == "active"


def test_ordinary_opaque_ids_are_accepted(api):
    response = api.post(
        "/api/v1/subjects/u-8f14e45fceea167a/facts",
        {**FACT, "session_id": "s-7", "turn_id": "t-81"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="3b9f0c1e-6a52-4c1e-9d1f-2a7c5e0b8d44",
        HTTP_X_REQUEST_ID="req-42",
    )

    assert response.status_code == 201, response.content
    assert response["X-Request-ID"] == "req-42"


def test_a_subject_stored_before_ids_were_checked_can_still_be_forgotten(api, acme):
    Subject.objects.create(workspace=acme, external_id=MOBILE, display_name="legacy")

    response = api.delete(f"/api/v1/subjects/{MOBILE}")

    assert response.status_code == 204
    assert Subject.objects.get(external_id=MOBILE).display_name == ""
