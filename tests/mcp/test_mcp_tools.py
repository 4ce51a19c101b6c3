"""The MCP tools through the SDK's client, on both transports (stdio and Streamable HTTP)."""

import pytest

from apps.audit.models import AuditEvent
from apps.memories.models import Memory
from tests.mcp.conftest import FACT_ARGS as FACT
from tests.mcp.conftest import error_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_recall_returns_the_fact_remember_fact_wrote(transport, bot_key, alice):
    written, recalled = transport.run(
        bot_key,
        ("remember_fact", FACT),
        ("recall", {"subject": "alice", "query": "喝点什么？冰美式还是茶"}),
    )

    assert written["outcome"] == "created"
    assert written["id"] in [item["id"] for item in recalled["memories"]]
    assert "冰美式" in recalled["memory_block"]


def test_remember_fact_stores_personal_data_redacted(transport, bot_key, alice):
    (written,) = transport.run(bot_key, ("remember_fact", FACT | {"value": "喜欢喝冰美式, call me at 13912345678"}))

    assert written["value"] == "喜欢喝冰美式, call me at <CN_MOBILE>"
    assert written["redacted"] == {"CN_MOBILE": 1}
    assert "13912345678" not in Memory.objects.get(pk=written["id"]).value


def test_a_read_only_key_is_refused_on_a_write_tool_with_a_clear_error(transport, read_only_key, alice):
    (refused,) = transport.run(read_only_key, ("remember_fact", FACT))

    error = error_of(refused)
    assert error["code"] == "permission_denied"
    assert "lacks the 'write' scope" in error["message"]
    assert not Memory.objects.filter(subject=alice).exists()


def test_another_workspaces_subject_is_unreachable(transport, bot_key, globex_key, carol):
    (carols,) = transport.run(globex_key, ("remember_fact", FACT | {"subject": "carol"}))

    recall, listing, forget = transport.run(
        bot_key,
        ("recall", {"subject": "carol", "query": "drink"}),
        ("list_memories", {"subject": "carol"}),
        ("forget", {"memory_id": carols["id"]}),
    )

    assert [error_of(answer)["code"] for answer in (recall, listing, forget)] == ["not_found"] * 3
    assert Memory.objects.get(pk=carols["id"]).status == Memory.Status.ACTIVE


def test_a_write_is_audited_as_the_agent_with_channel_mcp(transport, bot_key, alice, support_bot):
    (written,) = transport.run(bot_key, ("remember_fact", FACT))

    event = AuditEvent.objects.get(action="memory.created", memory_id=written["id"])
    assert (event.actor_type, event.actor_name) == ("agent", "Support Bot")
    assert event.memory.source.channel == "mcp"
    assert written["source"]["channel"] == "mcp"


def test_a_forget_and_a_correction_through_mcp_are_audited_with_channel_mcp(transport, bot_key, alice):
    (written,) = transport.run(bot_key, ("remember_fact", FACT))
    transport.run(bot_key, ("correct", {"memory_id": written["id"], "value": "Lisbon"}))
    (current,) = [m for m in Memory.objects.filter(subject=alice, status=Memory.Status.ACTIVE)]
    transport.run(bot_key, ("forget", {"memory_id": str(current.pk)}))

    channels = dict(
        AuditEvent.objects.filter(action__in=["memory.corrected", "memory.forgotten"]).values_list("action", "channel")
    )
    assert channels == {"memory.corrected": "mcp", "memory.forgotten": "mcp"}
