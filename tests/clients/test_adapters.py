"""The LangGraph store and the function-tool set, against the live test server."""

import asyncio
import json

import pytest
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp

from memoryadmin_client import Memory
from memoryadmin_client.langgraph import MemoryAdminStore
from memoryadmin_client.tools import TOOLS, dispatch


def test_the_store_puts_gets_searches_and_deletes_a_subjects_memories(server, key):
    store = MemoryAdminStore(Memory(key, server))

    store.put(("alice",), "drink", {"value": "喜欢喝冰美式", "category": "preference"})
    item = store.get(("alice",), "drink")
    found = store.search(("alice",), query="冰美式", limit=3)
    store.delete(("alice",), "drink")

    assert isinstance(store, BaseStore)
    assert (item.namespace, item.key, item.value["value"], item.value["category"]) == (
        ("alice",),
        "drink",
        "喜欢喝冰美式",
        "preference",
    )
    assert [(hit.key, hit.score > 0) for hit in found] == [("drink", True)]
    assert store.get(("alice",), "drink") is None


def test_the_store_keeps_a_value_without_a_value_field_as_json(server, key):
    store = MemoryAdminStore(Memory(key, server))

    store.put(("alice",), "settings", {"units": "metric", "tz": "Asia/Shanghai"})

    assert store.get(("alice",), "settings").value == {"units": "metric", "tz": "Asia/Shanghai"}


def test_the_store_answers_a_batch_in_order_and_lists_the_namespaces_it_used(server, key):
    store = MemoryAdminStore(Memory(key, server))

    results = store.batch(
        [
            PutOp(("alice",), "city", {"value": "杭州", "category": "fact"}),
            GetOp(("alice",), "city"),
            SearchOp(("alice",), filter={"category": "fact"}),
            ListNamespacesOp(),
        ]
    )

    assert results[0] is None
    assert results[1].value["value"] == "杭州"
    assert [hit.key for hit in results[2]] == ["city"]
    assert results[3] == [("alice",)]


def test_the_async_store_does_the_same(server, key):
    store = MemoryAdminStore(Memory(key, server))

    async def go():
        await store.aput(("alice",), "drink", {"value": "tea"})
        return await store.aget(("alice",), "drink"), await store.asearch(("alice",), query="tea")

    item, found = asyncio.run(go())

    assert item.value["value"] == "tea"
    assert [hit.key for hit in found] == ["drink"]


def test_the_store_refuses_a_namespace_that_is_not_one_subject(server, key):
    store = MemoryAdminStore(Memory(key, server))

    with pytest.raises(InvalidNamespaceError):
        store.put(("alice", "work"), "city", {"value": "杭州"})


def test_the_tool_definitions_are_openai_function_tools():
    assert sorted(tool["function"]["name"] for tool in TOOLS) == [
        "correct",
        "forget",
        "list_memories",
        "post_turn",
        "recall",
        "record_episode",
        "remember_fact",
    ]
    assert all(tool["type"] == "function" and tool["function"]["parameters"]["type"] == "object" for tool in TOOLS)


def test_the_dispatcher_runs_a_tool_call_and_answers_json(server, key):
    memory = Memory(key, server)

    written = json.loads(
        dispatch(
            memory,
            "remember_fact",
            json.dumps({"subject": "alice", "key": "drink", "value": "tea", "category": "preference"}),
        )
    )
    recalled = json.loads(dispatch(memory, "recall", {"subject": "alice", "query": "tea"}))

    assert written["outcome"] == "created"
    assert written["id"] in [item["id"] for item in recalled["memories"]]
    assert "tea" in recalled["memory_block"]


def test_the_dispatcher_answers_errors_as_json_for_the_model(server, key):
    memory = Memory(key, server)

    unknown = json.loads(dispatch(memory, "drop_tables", "{}"))
    invalid = json.loads(dispatch(memory, "recall", "{not json"))
    refused = json.loads(dispatch(memory, "recall", {"subject": "nobody", "query": "x"}))

    assert unknown["error"]["code"] == "unknown_tool"
    assert invalid["error"]["code"] == "invalid_arguments"
    assert refused["error"]["code"] == "not_found"
