"""A write-only key must not read memories: every write answers it with a receipt — the id, the
outcome, the version and what was redacted (and `replayed` when so) — never the memory itself."""

import pytest

from tests.conftest import client_with_key
from tests.factories import fact

pytestmark = pytest.mark.django_db

SECRET = "prefers-oolong-tea"
RECEIPT = {"id", "outcome", "version", "redacted"}


@pytest.fixture
def write_only_api(support_bot):
    return client_with_key(support_bot, scopes=["write"])


def assert_receipt(response, expected_keys=RECEIPT):
    assert response.status_code in (200, 201), response.content
    assert set(response.json()) == expected_keys
    assert SECRET not in response.content.decode()


def test_a_write_only_key_gets_a_receipt_for_a_fact_not_the_fact(write_only_api):
    response = write_only_api.post(
        "/api/v1/subjects/alice/facts",
        {"key": "tea", "value": f"{SECRET}, call 13812345678", "category": "preference"},
        format="json",
    )

    assert_receipt(response)
    assert response.status_code == 201
    assert (response.json()["outcome"], response.json()["version"]) == ("created", 1)
    assert response.json()["redacted"] == {"CN_MOBILE": 1}


def test_a_write_only_key_gets_a_receipt_for_an_episode(write_only_api):
    response = write_only_api.post("/api/v1/subjects/alice/episodes", {"text": f"said {SECRET}"}, format="json")

    assert_receipt(response)


def test_a_write_only_key_gets_a_receipt_for_a_correction(write_only_api, alice):
    memory = fact(alice, "tea", "green tea")

    response = write_only_api.patch(f"/api/v1/memories/{memory.id}", {"value": SECRET}, format="json")

    assert_receipt(response)
    assert (response.json()["outcome"], response.json()["version"]) == ("corrected", 2)


@pytest.mark.parametrize("action", ["pin", "unpin"])
def test_a_write_only_key_gets_a_receipt_for_pinning(write_only_api, alice, action):
    memory = fact(alice, "tea", SECRET)

    response = write_only_api.post(f"/api/v1/memories/{memory.id}/{action}")

    assert_receipt(response, {"id", "version", "pinned"})
    assert response.json()["pinned"] is (action == "pin")


def test_a_write_only_key_gets_a_receipt_for_a_replayed_write(write_only_api):
    body = {"key": "tea", "value": SECRET, "category": "preference"}
    write_only_api.post("/api/v1/subjects/alice/facts", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    replay = write_only_api.post("/api/v1/subjects/alice/facts", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert_receipt(replay, RECEIPT | {"replayed"})
    assert replay.json()["replayed"] is True and replay.json()["outcome"] == "created"


def test_a_key_that_can_read_still_gets_the_whole_memory(api, alice):
    written = api.post(
        "/api/v1/subjects/alice/facts", {"key": "tea", "value": SECRET, "category": "preference"}, format="json"
    ).json()
    pinned = api.post(f"/api/v1/memories/{written['id']}/pin").json()

    assert written["value"] == pinned["value"] == SECRET and written["replayed"] is False
    assert pinned["pinned"] is True and pinned["text"]
