"""The rest of the MCP surface over Streamable HTTP (the same code serves stdio): every tool, the
profile resource, bad input, throttles and keys."""

import asyncio

import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from apps.audit.models import AuditEvent
from apps.memories.models import Ingest, Memory
from tests.mcp.conftest import FACT_ARGS, Transport, error_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def http(asgi_server) -> Transport:
    return Transport("http", asgi_server)


def test_it_lists_the_seven_tools(http, bot_key):
    async def names():
        async with http.session(bot_key) as client:
            return sorted(tool.name for tool in (await client.list_tools()).tools)

    assert asyncio.run(names()) == [
        "correct",
        "forget",
        "list_memories",
        "post_turn",
        "recall",
        "record_episode",
        "remember_fact",
    ]


def test_it_records_an_episode_lists_it_corrects_it_and_forgets_it(http, bot_key, alice):
    episode, listed, corrected, forgotten, after = http.run(
        bot_key,
        ("record_episode", {"subject": "alice", "text": "退款已提交 for order 8812", "session_id": "s-7"}),
        ("list_memories", {"subject": "alice", "kind": "episode"}),
        lambda answers: (
            "correct",
            {"memory_id": answers[0]["id"], "text": "退款已到账 for order 8812", "reason": "refund arrived"},
        ),
        lambda answers: ("forget", {"memory_id": answers[2]["id"]}),
        ("list_memories", {"subject": "alice"}),
    )

    assert [m["id"] for m in listed["memories"]] == [episode["id"]]
    assert (corrected["outcome"], corrected["version"], corrected["text"]) == (
        "corrected",
        2,
        "退款已到账 for order 8812",
    )
    assert forgotten == {"forgotten": corrected["id"], "status": "deleted"}
    assert after["memories"] == []
    assert Memory.objects.filter(lineage=episode["id"]).exclude(text="").count() == 0


def test_forget_with_a_subject_forgets_everything_about_the_person(http, bot_key, alice):
    _, forgotten = http.run(bot_key, ("remember_fact", FACT_ARGS), ("forget", {"subject": "alice"}))

    assert forgotten == {"forgotten": "alice", "memories_erased": 1}
    assert AuditEvent.objects.filter(action="subject.forgotten", subject=alice).exists()


def test_post_turn_accepts_a_turn_for_extraction_and_redacts_it(http, bot_key, alice):
    (accepted,) = http.run(
        bot_key,
        (
            "post_turn",
            {
                "subject": "alice",
                "turn_id": "t-81",
                "session_id": "s-8",
                "user_message": "我不吃辣, mail me at zhang.san@example.com",
            },
        ),
    )

    assert accepted["replayed"] is False
    ingest = Ingest.objects.get(pk=accepted["ingest_id"])
    assert "zhang.san@example.com" not in ingest.user_message


def test_the_profile_resource_holds_the_subjects_active_profile_facts(http, bot_key, alice):
    written, profile = http.run(
        bot_key, ("remember_fact", FACT_ARGS), ("resource", "memoryadmin://subjects/alice/profile")
    )

    assert profile["subject"]["external_id"] == "alice"
    assert [(m["id"], m["key"], m["value"]) for m in profile["facts"]] == [(written["id"], "drink", "喜欢喝冰美式")]


def test_the_profile_resource_of_another_workspaces_subject_is_not_found(http, bot_key, carol):
    async def read():
        async with http.session(bot_key) as client:
            try:
                await client.read_resource("memoryadmin://subjects/carol/profile")
            except MCPError as error:
                return error

    error = asyncio.run(read())
    assert '"code": "not_found"' in error.error.message


def test_bad_input_is_a_clear_field_error_not_a_crash(http, bot_key, alice):
    too_many, bad_category, empty, bad_id = http.run(
        bot_key,
        ("recall", {"subject": "alice", "query": "x", "top_k": 500}),
        ("remember_fact", FACT_ARGS | {"category": "feelings"}),
        ("remember_fact", FACT_ARGS | {"value": " "}),
        ("correct", {"memory_id": "not-a-uuid", "value": "x"}),
    )

    assert too_many[0] == bad_category[0] == "error"  # refused by the tool's input schema, naming the field
    assert "top_k" in too_many[1] and "less than or equal to 50" in too_many[1]
    assert "category" in bad_category[1]
    assert error_of(empty)["code"] == "invalid" and "value" in error_of(empty)["fields"]
    assert error_of(bad_id)["code"] == "not_found"


def test_personal_data_in_an_identifier_is_refused(http, bot_key, alice):
    (refused,) = http.run(bot_key, ("remember_fact", FACT_ARGS | {"session_id": "chat-zhang.san@qq.com"}))

    assert error_of(refused)["code"] == "pii_in_identifier"


def test_write_tools_share_the_keys_write_throttle(http, bot_key, alice, monkeypatch):
    from django.core.cache import cache

    from apps.api.throttling import PerKeyThrottle

    monkeypatch.setattr(PerKeyThrottle, "THROTTLE_RATES", {"api_read": "100/min", "api_write": "1/min"})
    cache.clear()
    first, second = http.run(bot_key, ("remember_fact", FACT_ARGS), ("remember_fact", FACT_ARGS | {"key": "food"}))
    cache.clear()

    assert first["outcome"] == "created"
    assert error_of(second)["code"] == "throttled"


def test_a_request_without_a_valid_key_gets_401(asgi_server):
    answers = [
        httpx2.post(f"{asgi_server}/mcp/", json={}, headers=headers)
        for headers in ({}, {"Authorization": "Bearer mk_nope_nope"})
    ]

    assert [answer.status_code for answer in answers] == [401, 401]
    assert answers[1].json()["error"]["code"] == "authentication_failed"
    assert answers[0].headers["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_key_stops_working(http, bot_key, alice):
    from django.utils import timezone

    from apps.accounts.models import ApiKey

    ApiKey.objects.update(revoked_at=timezone.now())

    with pytest.raises(Exception):  # noqa: B017 (the SDK wraps the 401 in its own task-group errors)
        http.run(bot_key, ("list_memories", {"subject": "alice"}))
