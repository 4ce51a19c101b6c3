"""Attacks on idempotency and on forgetting, against a live server over plain HTTP: an agent
cannot read another agent's write by reusing its turn id or Idempotency-Key, a key reused for
another body is refused, and after "forget everything" neither the export nor any table holds the
person's keys, session ids or turn ids."""

import json

import pytest

from apps.accounts.models import Agent, Workspace
from apps.accounts.services import apikey_issue
from tests.dbscan import columns_containing
from tests.security.live_http import LiveClient


@pytest.fixture
def live(live_server, transactional_db):
    """A live server and the keys of two agents of one workspace."""
    workspace = Workspace.objects.create(name="Attack", slug="attack")
    keys = {}
    for name in ("Agent One", "Agent Two"):
        _, keys[name] = apikey_issue(
            agent=Agent.objects.create(workspace=workspace, name=name), scopes=["read", "write"]
        )
    return {"url": live_server.url, "one": keys["Agent One"], "two": keys["Agent Two"]}


def call(live, who: str, method: str, path: str, body: dict | None = None, **headers) -> tuple[int, dict | str]:
    return LiveClient(live["url"], key=live[who]).call(
        method, path, body, **{name.replace("_", "-"): value for name, value in headers.items()}
    )


FACTS, EPISODES = "/api/v1/subjects/alice/facts", "/api/v1/subjects/alice/episodes"


def test_a_second_agent_reusing_the_first_agents_turn_id_never_gets_the_first_agents_value(live):
    status, first = call(
        live,
        "one",
        "POST",
        FACTS,
        {"key": "plan", "value": "launch in March", "category": "fact", "turn_id": "shared-turn"},
    )
    assert status == 201

    status, second = call(
        live, "two", "POST", FACTS, {"key": "plan", "value": "a probe", "category": "fact", "turn_id": "shared-turn"}
    )

    assert status in (201, 409), second
    assert "launch in March" not in json.dumps(second)
    if status == 201:
        assert (second["value"], second["replayed"], second["source"]["agent"]) == ("a probe", False, "Agent Two")
        assert second["id"] != first["id"]


def test_a_second_agent_reusing_the_first_agents_idempotency_key_never_gets_the_first_agents_value(live):
    call(
        live,
        "one",
        "POST",
        FACTS,
        {"key": "plan", "value": "launch in March", "category": "fact"},
        Idempotency_Key="shared-key",
    )

    for path, body, own in (
        (FACTS, {"key": "plan", "value": "a probe", "category": "fact"}, ("value", "a probe")),
        (EPISODES, {"text": "probing"}, ("text", "probing")),
    ):
        status, answer = call(live, "two", "POST", path, body, Idempotency_Key="shared-key")
        assert status in (201, 409), answer
        assert "launch in March" not in json.dumps(answer), path
        if status == 201:
            assert (answer[own[0]], answer["replayed"], answer["source"]["agent"]) == (own[1], False, "Agent Two")


def test_an_episode_with_the_key_of_a_fact_is_an_episode_not_the_fact(live):
    _, fact = call(
        live,
        "one",
        "POST",
        FACTS,
        {"key": "plan", "value": "launch in March", "category": "fact"},
        Idempotency_Key="k-77",
    )
    status, episode = call(live, "one", "POST", EPISODES, {"text": "Asked about the launch"}, Idempotency_Key="k-77")

    assert status == 201 and episode["kind"] == "episode" and episode["id"] != fact["id"]


def test_reusing_a_key_with_a_different_body_is_refused_with_409(live):
    call(
        live,
        "one",
        "POST",
        FACTS,
        {"key": "plan", "value": "launch in March", "category": "fact"},
        Idempotency_Key="k-78",
    )

    status, answer = call(
        live,
        "one",
        "POST",
        FACTS,
        {"key": "plan", "value": "launch in May", "category": "fact"},
        Idempotency_Key="k-78",
    )

    assert status == 409 and answer["error"]["code"] == "idempotency_key_reused"
    _, listed = call(live, "one", "GET", "/api/v1/subjects/alice/memories")
    assert [m["value"] for m in listed["results"]] == ["launch in March"]


TRACES = ("passport_zq77", "passport zq77", "sess-zq77", "turn-zq77", "turn-zq78", "turn-zq79", "CN_PASSPORT")


def test_after_forget_everything_neither_the_export_nor_any_table_holds_a_key_a_session_or_a_turn_id(live):
    write = {
        "key": "passport zq77",
        "value": "passport E12345678",
        "category": "fact",
        "session_id": "sess-zq77",
        "turn_id": "turn-zq77",
    }
    assert call(live, "one", "POST", FACTS, write, Idempotency_Key="idem-zq77")[0] == 201
    assert (
        call(
            live,
            "two",
            "POST",
            EPISODES,
            {"text": "Renewed a passport", "session_id": "sess-zq77", "turn_id": "turn-zq79"},
        )[0]
        == 201
    )
    assert (
        call(
            live,
            "one",
            "POST",
            "/api/v1/subjects/alice/turns",
            {"turn_id": "turn-zq78", "session_id": "sess-zq77", "user_message": "I live in Chengdu."},
        )[0]
        == 202
    )
    assert call(live, "one", "POST", "/api/v1/subjects/alice/recall", {"query": "passport"})[0] == 200
    assert all(columns_containing(trace) for trace in ("passport_zq77", "sess-zq77", "turn-zq77", "turn-zq78"))

    assert call(live, "one", "DELETE", "/api/v1/subjects/alice")[0] == 204

    status, export = call(live, "one", "GET", "/api/v1/subjects/alice/export")
    assert status == 200 and export["memories"] == []
    _, tombstones = call(live, "one", "GET", "/api/v1/subjects/alice/memories?status=deleted")
    for trace in TRACES:
        assert trace not in json.dumps(export) and trace not in json.dumps(tombstones), trace
        assert columns_containing(trace) == [], trace
