import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Agent
from apps.accounts.services import apikey_issue


def client_with_key(agent, scopes=("read", "write")) -> APIClient:
    _, raw_key = apikey_issue(agent=agent, scopes=list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    client.raw_key = raw_key
    return client


@pytest.fixture
def api(support_bot) -> APIClient:
    """Support Bot of Acme with a read+write key."""
    return client_with_key(support_bot)


@pytest.fixture
def read_only_api(support_bot) -> APIClient:
    return client_with_key(support_bot, scopes=["read"])


@pytest.fixture
def globex_api(globex) -> APIClient:
    """An agent of the other workspace."""
    return client_with_key(Agent.objects.create(workspace=globex, name="Globex Bot"))


@pytest.fixture
def fact(api):
    """Alice's reply-language preference, written through the API; the response body."""
    response = api.post("/api/v1/subjects/alice/facts", {"key": "reply language", "value": "中文", "category": "preference"},
                        format="json")
    assert response.status_code == 201, response.content
    return response.json()
