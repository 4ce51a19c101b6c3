import pytest


@pytest.fixture
def fact(api):
    """Alice's reply-language preference, written through the API; the response body."""
    response = api.post(
        "/api/v1/subjects/alice/facts",
        {"key": "reply language", "value": "中文", "category": "preference"},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()
