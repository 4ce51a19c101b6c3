"""Audit completeness: every API, portal and console action that changes data appends exactly
one AuditEvent, with the right kind of actor and the channel it came through."""

import pytest

from apps.accounts.models import ApiKey
from apps.audit.models import AuditEvent
from apps.memories.models import ForgetRequest, Memory, Suppression
from tests.factories import fact

pytestmark = pytest.mark.django_db


def exactly_one_event(action):
    before = AuditEvent.objects.count()
    response = action()
    assert response.status_code < 400, response.content[:300]
    new = list(AuditEvent.objects.order_by("-id")[: AuditEvent.objects.count() - before])
    assert len(new) == 1, [e.action for e in new]
    return new[0]


@pytest.fixture
def memory_id(api):
    return api.post(
        "/api/v1/subjects/alice/facts", {"key": "tea", "value": "oolong", "category": "preference"}, format="json"
    ).json()["id"]


def current(memory_id) -> str:
    lineage = Memory.objects.get(pk=memory_id).lineage
    return str(Memory.objects.filter(lineage=lineage).order_by("-version").first().pk)


def test_every_api_write_is_audited_once_as_the_agent(api, memory_id):
    calls = [
        lambda: api.post(
            "/api/v1/subjects/alice/facts", {"key": "city", "value": "Berlin", "category": "fact"}, format="json"
        ),
        lambda: api.post("/api/v1/subjects/alice/episodes", {"text": "asked for a refund"}, format="json"),
        lambda: api.patch(f"/api/v1/memories/{current(memory_id)}", {"value": "jasmine"}, format="json"),
        lambda: api.post(f"/api/v1/memories/{current(memory_id)}/pin"),
        lambda: api.post(f"/api/v1/memories/{current(memory_id)}/unpin"),
        lambda: api.post("/api/v1/subjects/alice/portal-link"),
        lambda: api.delete(f"/api/v1/memories/{current(memory_id)}"),
        lambda: api.delete("/api/v1/subjects/alice"),
    ]
    for call in calls:
        event = exactly_one_event(call)
        assert (event.actor_type, event.actor_name, event.channel) == ("agent", "Support Bot", "api"), event.action


@pytest.mark.django_db(transaction=True)  # the turn is processed when its write commits
def test_a_posted_turn_is_audited_once_plus_once_per_memory_it_became(api):
    before = AuditEvent.objects.count()
    ingest_id = api.post(
        "/api/v1/subjects/alice/turns", {"turn_id": "t-1", "user_message": "我不吃辣。I use Neovim."}, format="json"
    ).json()["ingest_id"]
    body = api.get(f"/api/v1/ingests/{ingest_id}").json()

    actions = list(AuditEvent.objects.order_by("id").values_list("action", flat=True)[before:])
    assert body["status"] == "done" and body["created"]
    assert actions.count("ingest.accepted") == 1
    assert len(actions) == 1 + len(body["created"]) + len(body["updated"])
    assert set(AuditEvent.objects.order_by("id").values_list("channel", flat=True)[before:]) == {"turns"}


def test_every_portal_action_is_audited_once_as_the_person(as_alice, alice):
    client = as_alice
    memory = fact(alice, "tea", "oolong")
    latest = lambda: str(Memory.objects.filter(lineage=memory.lineage).order_by("-version").first().pk)  # noqa: E731
    calls = [
        lambda: client.post(f"/me/memories/{latest()}/pin"),
        lambda: client.post(f"/me/memories/{latest()}/unpin"),
        lambda: client.post(f"/me/memories/{latest()}/correct", {"value": "jasmine"}),
        lambda: client.post("/me/pause", {"paused": "on"}),
        lambda: client.post("/me/pause", {"paused": "off"}),
        lambda: client.post(f"/me/memories/{latest()}/delete", {"suppress": "on"}),
        lambda: client.post(f"/me/undo/{ForgetRequest.objects.get().pk}"),
        lambda: client.post(f"/me/memories/{latest()}/delete", {"suppress": "on"}),
        lambda: client.post(f"/me/suppressions/{Suppression.objects.get().pk}/remove"),
        lambda: client.post("/me/forget", {"confirmation": "forget everything"}),
    ]
    for call in calls:
        event = exactly_one_event(call)
        assert (event.actor_type, event.actor_name, event.channel) == ("end_user", "alice", "portal"), event.action


def test_using_a_portal_link_is_audited_once(client, api, alice):
    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")
    assert exactly_one_event(lambda: client.post(url)).action == "portallink.used"


def test_every_console_action_is_audited_once_as_the_operator(as_adam, alice, support_bot):
    client = as_adam
    memory = fact(alice, "tea", "oolong")
    latest = lambda: str(Memory.objects.filter(lineage=memory.lineage).order_by("-version").first().pk)  # noqa: E731
    key = lambda: ApiKey.objects.filter(agent=support_bot, revoked_at=None).first()  # noqa: E731
    calls = [
        lambda: client.post(f"/console/memories/{latest()}/correct", {"value": "jasmine", "reason": "ticket 1"}),
        lambda: client.post("/console/agents/", {"name": "Travel Bot"}),
        lambda: client.post(f"/console/agents/{support_bot.pk}/keys", {"scopes": ["read"]}),
        lambda: client.post(f"/console/keys/{key().pk}/rotate"),
        lambda: client.post(f"/console/keys/{key().pk}/revoke"),
        lambda: client.post(
            "/console/settings/retention",
            {"subject_capacity": 10, "archive_unread_after_days": 5, "access_log_retention_days": 5},
        ),
        lambda: client.post(f"/console/memories/{latest()}/delete", {"reason": "ticket 2"}),
    ]
    for call in calls:
        event = exactly_one_event(call)
        assert (event.actor_type, event.actor_name, event.channel) == ("operator", "adam", "console"), event.action
