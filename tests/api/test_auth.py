import pytest
from rest_framework.test import APIClient

from apps.accounts.services import apikey_revoke
from apps.memories.models import Memory

pytestmark = pytest.mark.django_db

FACT = {"key": "tone", "value": "formal", "category": "preference"}


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code
    assert set(response.json()["error"]) >= {"code", "message", "fields"}


def test_a_request_without_a_key_is_401():
    response = APIClient().get("/api/v1/subjects/alice/memories")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer mk_deadbeef_nope", "Bearer", "Token abc", "Basic YWxpY2U6cHc="])
def test_a_wrong_key_is_401(alice, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    assert_error(client.get("/api/v1/subjects/alice/memories"), 401, "authentication_failed")


def test_a_revoked_key_is_401(api, alice):
    from apps.accounts.models import ApiKey

    apikey_revoke(key=ApiKey.objects.get())
    assert_error(api.get("/api/v1/subjects/alice/memories"), 401, "authentication_failed")


def test_a_read_only_key_can_read_but_not_write(read_only_api, alice):
    assert read_only_api.get("/api/v1/subjects/alice/memories").status_code == 200
    assert_error(read_only_api.post("/api/v1/subjects/alice/facts", FACT, format="json"), 403, "permission_denied")
    assert not Memory.objects.exists()


def test_the_agent_is_taken_from_the_key_not_the_payload(api, support_bot):
    response = api.post(
        "/api/v1/subjects/alice/facts", {**FACT, "agent": "Someone Else", "workspace": 999}, format="json"
    )

    assert response.json()["source"]["agent"] == "Support Bot"
    assert Memory.objects.get().workspace_id == support_bot.workspace_id


def test_requests_are_throttled_per_key(api, alice, monkeypatch):
    from apps.api.throttling import PerKeyThrottle

    monkeypatch.setattr(PerKeyThrottle, "THROTTLE_RATES", {"api_read": "2/min", "api_write": "2/min"})
    from django.core.cache import cache

    cache.clear()
    statuses = [api.get("/api/v1/subjects/alice/memories").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    response = api.get("/api/v1/subjects/alice/memories")
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    cache.clear()
