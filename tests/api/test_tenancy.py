"""An agent of workspace Globex gets 404 for Acme's subjects and memory ids on every endpoint."""

import pytest

from apps.memories.models import Memory

pytestmark = pytest.mark.django_db


def test_every_endpoint_hides_another_workspaces_data(api, globex_api, fact):
    memory_id = fact["id"]
    calls = [
        ("get", "/api/v1/subjects/alice", None),
        ("get", "/api/v1/subjects/alice/memories", None),
        ("get", "/api/v1/subjects/alice/export", None),
        ("delete", "/api/v1/subjects/alice", None),
        ("get", f"/api/v1/memories/{memory_id}", None),
        ("patch", f"/api/v1/memories/{memory_id}", {"value": "English"}),
        ("delete", f"/api/v1/memories/{memory_id}", None),
        ("post", f"/api/v1/memories/{memory_id}/pin", None),
        ("post", f"/api/v1/memories/{memory_id}/unpin", None),
        ("get", f"/api/v1/memories/{memory_id}/history", None),
    ]
    for method, url, body in calls:
        response = getattr(globex_api, method)(url, body, format="json")
        assert response.status_code == 404, (method, url, response.status_code)
        assert response.json()["error"]["code"] == "not_found"

    memory = Memory.objects.get(id=memory_id)
    assert (memory.status, memory.value, memory.pinned) == ("active", "中文", False)


def test_writing_to_the_same_external_id_in_another_workspace_makes_a_separate_subject(api, globex_api, fact):
    globex_api.post(
        "/api/v1/subjects/alice/facts", {"key": "tone", "value": "casual", "category": "preference"}, format="json"
    )

    listed = globex_api.get("/api/v1/subjects/alice/memories").json()["results"]
    assert [m["value"] for m in listed] == ["casual"]
    assert [m["value"] for m in api.get("/api/v1/subjects/alice/memories").json()["results"]] == ["中文"]
