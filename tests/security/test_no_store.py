"""What shows memories, exports or a new key must not be kept by a browser or a proxy: every API
answer and every page carries `Cache-Control: no-store`, and pages `Vary: Cookie`."""

import pytest

from tests.factories import fact

pytestmark = pytest.mark.django_db


@pytest.fixture
def memory(alice):
    return fact(alice, "tea", "oolong")


def assert_no_store(response):
    assert "no-store" in response.get("Cache-Control", ""), (response.status_code, response.get("Cache-Control"))


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/subjects/alice/memories",
        "/api/v1/subjects/alice/export",
        "/api/v1/subjects/alice",
        "/api/v1/subjects/nobody/memories",
    ],
)
def test_api_reads_are_not_stored(api, memory, path):
    assert_no_store(api.get(path))


def test_api_writes_and_recalls_are_not_stored(api, memory):
    assert_no_store(
        api.post("/api/v1/subjects/alice/facts", {"key": "k", "value": "v", "category": "fact"}, format="json")
    )
    assert_no_store(api.post("/api/v1/subjects/alice/recall", {"query": "tea"}, format="json"))
    assert_no_store(api.post(f"/api/v1/memories/{memory.id}/pin"))


def test_api_errors_are_not_stored_either(client, db):
    assert_no_store(client.get("/api/v1/subjects/alice/memories"))  # 401


@pytest.mark.parametrize("path", ["/me/", "/me/export", "/me/export.json", "/me/forget"])
def test_portal_pages_are_not_stored_and_vary_by_cookie(as_alice, memory, path):
    response = as_alice.get(path)

    assert response.status_code == 200
    assert_no_store(response)
    assert "Cookie" in response.get("Vary", "")


def test_a_memory_page_of_the_portal_is_not_stored(as_alice, memory):
    assert_no_store(as_alice.get(f"/me/memories/{memory.id}/"))


@pytest.mark.parametrize(
    "path", ["/console/", "/console/subjects/", "/console/audit/", "/console/audit.csv", "/console/agents/"]
)
def test_console_pages_are_not_stored_and_vary_by_cookie(as_adam, memory, path):
    response = as_adam.get(path)

    assert response.status_code == 200
    assert_no_store(response)
    assert "Cookie" in response.get("Vary", "")


def test_the_new_key_page_is_not_stored(as_adam, support_bot):
    issued = as_adam.post(f"/console/agents/{support_bot.pk}/keys", {"scopes": ["read"]})

    assert_no_store(issued)
    assert_no_store(as_adam.get(issued["Location"]))


def test_the_sign_in_page_is_not_stored(client, db):
    assert_no_store(client.get("/accounts/login/"))
