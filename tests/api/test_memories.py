import pytest

from apps.audit.models import AuditEvent
from apps.memories.models import Memory
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db


def write(api, subject="alice", **body):
    return api.post(f"/api/v1/subjects/{subject}/facts", body, format="json").json()


def test_listing_is_active_only_by_default_and_filters(api, fact):
    api.patch(f"/api/v1/memories/{fact['id']}", {"value": "English"}, format="json")
    api.post("/api/v1/subjects/alice/episodes", {"text": "问了退款进度", "session_id": "s2"}, format="json")

    def texts(query=""):
        return [m["text"] for m in api.get(f"/api/v1/subjects/alice/memories{query}").json()["results"]]

    assert texts() == ["问了退款进度", "reply language: English"]
    assert texts("?kind=profile") == ["reply language: English"]
    assert texts("?status=superseded") == ["reply language: 中文"]
    assert texts("?session_id=s2") == ["问了退款进度"]
    assert texts("?q=退款") == ["问了退款进度"]
    assert texts("?q=ENGLISH") == ["reply language: English"]


def test_listing_an_unknown_subject_is_404(api):
    assert api.get("/api/v1/subjects/nobody/memories").status_code == 404


def test_the_list_is_cursor_paginated_without_n_plus_one(api, alice, django_assert_num_queries):
    for number in range(7):
        write(api, key=f"k{number}", value=f"v{number}", category="fact", turn_id=f"t{number}")

    with django_assert_num_queries(3):  # the key, the subject, one page with sources and agents
        page = api.get("/api/v1/subjects/alice/memories?limit=3").json()
    seen = [m["value"] for m in page["results"]]
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += [m["value"] for m in page["results"]]

    assert seen == [f"v{n}" for n in reversed(range(7))]


def test_a_correction_returns_the_new_version_and_history_shows_the_chain(api, fact):
    corrected = api.patch(
        f"/api/v1/memories/{fact['id']}", {"value": "English", "reason": "user switched"}, format="json"
    )

    assert corrected.status_code == 200
    new = corrected.json()
    assert (new["version"], new["value"], new["supersedes"], new["outcome"]) == (2, "English", fact["id"], "corrected")

    history = api.get(f"/api/v1/memories/{new['id']}/history").json()
    assert [(v["version"], v["value"], v["status"]) for v in history] == [
        (1, "中文", "superseded"),
        (2, "English", "active"),
    ]
    assert [v["change"]["action"] for v in history] == ["memory.created", "memory.corrected"]
    assert history[1]["change"]["actor_name"] == "Support Bot" and history[1]["change"]["reason"] == "user switched"
    assert api.get(f"/api/v1/memories/{fact['id']}/history").json() == history


def test_correcting_a_superseded_version_is_409(api, fact):
    api.patch(f"/api/v1/memories/{fact['id']}", {"value": "English"}, format="json")

    response = api.patch(f"/api/v1/memories/{fact['id']}", {"value": "Deutsch"}, format="json")

    assert response.status_code == 409 and response.json()["error"]["code"] == "conflict"
    assert Memory.objects.count() == 2


def test_an_episode_is_corrected_through_its_text_and_a_fact_through_its_value(api, fact):
    episode = api.post("/api/v1/subjects/alice/episodes", {"text": "问了退款进度"}, format="json").json()

    corrected = api.patch(f"/api/v1/memories/{episode['id']}", {"text": "问了订单 42 的退款进度"}, format="json")
    wrong_for_episode = api.patch(f"/api/v1/memories/{episode['id']}", {"value": "x"}, format="json")
    wrong_for_fact = api.patch(f"/api/v1/memories/{fact['id']}", {"text": "x"}, format="json")

    assert corrected.status_code == 200 and corrected.json()["text"] == "问了订单 42 的退款进度"
    assert wrong_for_episode.status_code == wrong_for_fact.status_code == 400
    assert wrong_for_episode.json()["error"]["fields"] == {"value": ["Episodes are corrected through their text."]}
    assert wrong_for_fact.json()["error"]["fields"] == {"text": ["Profile facts are corrected through their value."]}
    assert Memory.objects.count() == 3


def test_pin_and_unpin(api, fact):
    pinned = api.post(f"/api/v1/memories/{fact['id']}/pin")
    assert pinned.status_code == 200 and pinned.json()["pinned"] is True

    unpinned = api.post(f"/api/v1/memories/{fact['id']}/unpin")
    assert unpinned.json()["pinned"] is False
    assert list(AuditEvent.objects.filter(memory_id=fact["id"]).values_list("action", flat=True).order_by("id")) == [
        "memory.created",
        "memory.pinned",
        "memory.unpinned",
    ]


def test_forgetting_a_memory_makes_it_404_and_erases_it(api, fact):
    response = api.delete(f"/api/v1/memories/{fact['id']}")

    assert response.status_code == 204
    for url in (f"/api/v1/memories/{fact['id']}", f"/api/v1/memories/{fact['id']}/history"):
        assert api.get(url).status_code == 404
    assert api.get("/api/v1/subjects/alice/memories").json()["results"] == []
    assert columns_containing("中文") == []


def test_the_export_holds_every_memory_with_history_and_sources(api, fact):
    api.patch(f"/api/v1/memories/{fact['id']}", {"value": "English"}, format="json")
    write(api, key="city", value="Berlin", category="fact", turn_id="t-5", session_id="s-5")

    export = api.get("/api/v1/subjects/alice/export").json()

    assert export["subject"]["external_id"] == "alice"
    chains = {m["versions"][-1]["key"]: m for m in export["memories"]}
    assert [v["value"] for v in chains["reply_language"]["versions"]] == ["中文", "English"]
    assert chains["reply_language"]["status"] == "active"
    city = chains["city"]["versions"][0]
    assert (city["source"]["turn_id"], city["source"]["agent"], city["change"]["actor_name"]) == (
        "t-5",
        "Support Bot",
        "Support Bot",
    )


def test_forgetting_a_subject_erases_everything(api, fact):
    api.post("/api/v1/subjects/alice/episodes", {"text": "Visited Lisbon"}, format="json")

    assert api.delete("/api/v1/subjects/alice").status_code == 204

    assert api.get("/api/v1/subjects/alice/memories").json()["results"] == []
    assert set(Memory.objects.values_list("status", flat=True)) == {"deleted"}
    assert columns_containing("Lisbon") == [] and columns_containing("中文") == []
    export = api.get("/api/v1/subjects/alice/export").json()
    assert all(v["text"] == "" for m in export["memories"] for v in m["versions"])


def test_correcting_a_hidden_email_to_the_real_one_says_it_is_removed_before_saving(api):
    written = api.post(
        "/api/v1/subjects/alice/facts", {"key": "email", "value": "zhang.san@qq.com", "category": "fact"}, format="json"
    ).json()

    response = api.patch(f"/api/v1/memories/{written['id']}", {"value": "zhang.san@qq.com"}, format="json")

    assert response.status_code == 400
    message = " ".join(response.json()["error"]["fields"]["non_field_errors"])
    assert "removed before saving" in message and "Nothing changed" in message


def test_an_agents_correction_keeps_the_agent_as_source_and_its_confidence(api):
    written = api.post(
        "/api/v1/subjects/alice/facts",
        {"key": "city", "value": "Beijing", "category": "fact", "confidence": 0.8, "turn_id": "t-1"},
        format="json",
    ).json()

    corrected = api.patch(f"/api/v1/memories/{written['id']}", {"value": "Hangzhou"}, format="json").json()

    assert corrected["source"]["agent"] == "Support Bot"
    assert (corrected["source"]["channel"], corrected["source"]["actor_type"]) == ("api", "agent")
    assert corrected["confidence"] == 0.8
