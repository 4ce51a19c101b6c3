"""memoryadmin_client (clients/python) against the live test server, sync and async."""

import asyncio
import time

import httpx
import pytest

from apps.memories.models import Memory as MemoryRow
from memoryadmin_client import AsyncMemory, Memory, MemoryAdminError, RecallResult, WriteResult


def test_it_writes_a_fact_and_recalls_it(server, key):
    memory = Memory(key, server)

    written = memory.remember_fact("alice", "drink", "喜欢喝冰美式, call me at 13912345678", category="preference")
    recalled = memory.recall("alice", "喝点什么？冰美式")

    assert isinstance(written, WriteResult) and isinstance(recalled, RecallResult)
    assert (written.outcome, written.value, written.redacted) == (
        "created",
        "喜欢喝冰美式, call me at <CN_MOBILE>",
        {"CN_MOBILE": 1},
    )
    assert written.id in [item.id for item in recalled.memories]
    assert "冰美式" in recalled.memory_block


def test_the_async_client_does_the_same(server, key):
    async def go():
        async with AsyncMemory(key, server) as memory:
            written = await memory.remember_fact("alice", "drink", "喜欢喝冰美式", category="preference")
            return written, await memory.recall("alice", "冰美式")

    written, recalled = asyncio.run(go())

    assert written.id in [item.id for item in recalled.memories]


def test_it_records_lists_corrects_and_forgets(server, key):
    memory = Memory(key, server)

    episode = memory.record_episode("alice", "退款已提交 for order 8812", session_id="s-7")
    listed = memory.list_memories("alice", kind="episode")
    corrected = memory.correct(episode.id, text="退款已到账 for order 8812", reason="refund arrived")
    memory.forget(corrected.id)

    assert [m.id for m in listed] == [episode.id]
    assert (corrected.outcome, corrected.version) == ("corrected", 2)
    assert memory.list_memories("alice") == []
    assert not MemoryRow.objects.filter(lineage=episode.id).exclude(text="").exists()


def test_the_async_client_lists_corrects_and_forgets(server, key):
    async def go():
        async with AsyncMemory(key, server) as memory:
            episode = await memory.record_episode("alice", "部署了 v2 版本")
            corrected = await memory.correct(episode.id, text="部署了 v3 版本")
            await memory.forget(corrected.id)
            return await memory.list_memories("alice")

    assert asyncio.run(go()) == []


def test_post_turn_is_accepted_and_its_ingest_can_be_read(server, key):
    memory = Memory(key, server)

    accepted = memory.post_turn("alice", "我不吃辣", turn_id="t-1", assistant_message="好的")
    ingest = memory.ingest(accepted.ingest_id)

    assert accepted.replayed is False
    assert ingest.status == "done"
    assert [m.key for m in ingest.created] == ["diet"]


def test_forget_with_a_subject_forgets_the_person(server, key):
    memory = Memory(key, server)
    memory.remember_fact("alice", "drink", "tea")

    memory.forget_subject("alice")

    assert memory.list_memories("alice") == []
    assert memory.recall("alice", "tea").memories == []


def test_errors_carry_the_apis_code_status_and_message(server, read_only_key):
    memory = Memory(read_only_key, server)

    with pytest.raises(MemoryAdminError) as refused:
        memory.remember_fact("alice", "drink", "tea")
    with pytest.raises(MemoryAdminError) as missing:
        memory.recall("nobody-here", "tea")

    assert (refused.value.status, refused.value.code) == (403, "permission_denied")
    assert "'write' scope" in str(refused.value)
    assert (missing.value.status, missing.value.code) == (404, "not_found")


def test_writes_carry_an_idempotency_key_by_default_and_a_retry_replays(server, key):
    sent = []
    http = httpx.Client(event_hooks={"request": [lambda request: sent.append(request)]})
    memory = Memory(key, server, http_client=http)

    first = memory.remember_fact("alice", "drink", "tea", idempotency_key="k-1")
    again = memory.remember_fact("alice", "drink", "tea", idempotency_key="k-1")
    memory.record_episode("alice", "部署了 v2 版本")

    assert (first.replayed, again.replayed, again.id) == (False, True, first.id)
    assert sent[-1].headers["Idempotency-Key"]  # generated when none was given
    assert sent[0].headers["Idempotency-Key"] == "k-1"


@pytest.fixture
def one_read_per_second(monkeypatch):
    from apps.api.throttling import PerKeyThrottle

    monkeypatch.setattr(PerKeyThrottle, "THROTTLE_RATES", {"api_read": "1/s", "api_write": "1/s"})


def test_it_retries_a_429_after_retry_after(server, key, one_read_per_second):
    statuses, sent = [], []
    http = httpx.Client(
        event_hooks={
            "response": [lambda response: statuses.append(response.status_code)],
            "request": [lambda request: sent.append(request)],
        }
    )
    memory = Memory(key, server, http_client=http)
    memory.remember_fact("alice", "drink", "tea")

    started = time.monotonic()
    written = memory.remember_fact("alice", "food", "noodles")

    assert statuses == [201, 429, 201]
    assert time.monotonic() - started >= 0.9  # Retry-After: 1
    assert written.outcome == "created"
    assert sent[1].headers["Idempotency-Key"] == sent[2].headers["Idempotency-Key"]


def test_the_async_client_retries_a_429_too(server, key, one_read_per_second):
    statuses = []

    async def record(response):
        statuses.append(response.status_code)

    async def go():
        http = httpx.AsyncClient(event_hooks={"response": [record]})
        async with AsyncMemory(key, server, http_client=http) as memory:
            await memory.list_memories("alice")
            return await memory.list_memories("alice")

    assert asyncio.run(go()) == []
    assert statuses == [200, 429, 200]


def test_it_gives_up_after_max_retries_with_the_429(server, key, monkeypatch):
    from apps.api.throttling import PerKeyThrottle

    monkeypatch.setattr(PerKeyThrottle, "THROTTLE_RATES", {"api_read": "1/min", "api_write": "1/min"})
    memory = Memory(key, server, max_retries=0)
    memory.list_memories("alice")

    with pytest.raises(MemoryAdminError) as throttled:
        memory.list_memories("alice")

    assert (throttled.value.status, throttled.value.code) == (429, "throttled")
    assert throttled.value.retry_after > 0


def test_bad_arguments_are_refused_naming_the_field(server, key):
    memory = Memory(key, server)

    with pytest.raises(MemoryAdminError) as refused:
        memory.remember_fact("alice", "drink", "tea", category="feelings")

    assert refused.value.code == "invalid"
    assert "category" in refused.value.fields
