import pytest
from django.db import connection

from apps.audit.models import AccessLog
from apps.memories.models import Memory

# Real commits: embedding runs on commit, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

RECALL = "/api/v1/subjects/alice/recall"


@pytest.fixture
def remembered(api):
    for body in (
        {"key": "diet", "value": "不吃辣，微辣也不行", "category": "constraint"},
        {"key": "drink", "value": "prefers oolong tea", "category": "preference", "importance": 0.8},
        {"key": "city", "value": "lives in Hangzhou", "category": "fact"},
    ):
        assert api.post("/api/v1/subjects/alice/facts", body, format="json").status_code == 201
    api.post(
        "/api/v1/subjects/bob/facts",
        {"key": "diet", "value": "loves spicy food", "category": "preference"},
        format="json",
    )


def test_recall_returns_ranked_memories_and_a_memory_block(api, remembered):
    response = api.post(RECALL, {"query": "Can she eat spicy food?", "top_k": 2}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["memories"][0]["value"] == "不吃辣，微辣也不行"
    assert set(body["memories"][0]["components"]) == {"similarity", "keyword", "recency", "importance", "pinned"}
    assert "不吃辣" in body["memory_block"] and "not instructions" in body["memory_block"]
    assert body["used_tokens"] > 0 and body["fallback"] is None and body["took_ms"] > 0
    assert "trace" not in body
    assert "loves spicy food" not in [m["value"] for m in body["memories"]]  # that is bob's


def test_recall_needs_only_the_read_scope(read_only_api, remembered):
    assert read_only_api.post(RECALL, {"query": "tea"}, format="json").status_code == 200


def test_recall_records_who_read_what_with_rank_and_score(api, remembered, support_bot):
    body = api.post(RECALL, {"query": "what does she drink?", "top_k": 2}, format="json").json()

    logs = list(AccessLog.objects.order_by("rank"))
    assert [(log.memory_id.hex, log.rank, log.agent_id) for log in logs] == [
        (m["id"].replace("-", ""), rank, support_bot.id) for rank, m in enumerate(body["memories"], start=1)
    ]
    assert logs[0].score == pytest.approx(body["memories"][0]["score"], abs=1e-3)
    assert Memory.objects.get(id=body["memories"][0]["id"]).access_count == 1


def test_auto_mode_answers_small_talk_with_nothing(api, remembered):
    body = api.post(RECALL, {"query": "谢谢！", "mode": "auto"}, format="json").json()
    assert (body["memories"], body["memory_block"], body["skipped"]) == ([], "", "small_talk")


def test_the_trace_explains_the_legs_when_asked(api, remembered):
    trace = api.post(RECALL, {"query": "tea", "include_trace": True}, format="json").json()["trace"]
    assert set(trace["legs"]) == {"vector", "keyword", "recent"} and trace["model"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "query"),
        ({"query": "x", "top_k": 0}, "top_k"),
        ({"query": "x", "kinds": ["dream"]}, "kinds"),
        ({"query": "x", "mode": "sometimes"}, "mode"),
        ({"query": "x", "token_budget": 10}, "token_budget"),
    ],
)
def test_bad_recall_requests_get_400(api, remembered, body, field):
    response = api.post(RECALL, body, format="json")
    assert response.status_code == 400 and field in response.json()["error"]["fields"]


def test_recall_of_an_unknown_subject_or_another_workspace_is_404(api, globex_api, remembered):
    assert api.post("/api/v1/subjects/nobody/recall", {"query": "x"}, format="json").status_code == 404
    assert globex_api.post(RECALL, {"query": "tea"}, format="json").status_code == 404


def test_the_access_log_is_written_off_the_request_path(api, remembered, settings):
    from apps.memories.recall.access import recorder

    settings.RECALL_ACCESS_ASYNC = True
    settings.RECALL_ACCESS_FLUSH_SECONDS = 0.05
    body = api.post(RECALL, {"query": "tea"}, format="json").json()

    import time

    deadline = time.monotonic() + 5
    while not AccessLog.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert AccessLog.objects.count() == len(body["memories"]) > 0
    recorder.flush()
    connection.close()


def test_the_flush_at_exit_waits_for_the_batch_the_writer_thread_is_still_writing(
    api, remembered, settings, monkeypatch
):
    # A deploy's SIGTERM ends a gunicorn worker while its writer thread may be half-way through a
    # batch; the flush at exit must not return (and let the interpreter cut that thread off) before
    # the batch is in the access log.
    import threading
    import time

    from apps.memories.recall import access

    settings.RECALL_ACCESS_ASYNC = True
    settings.RECALL_ACCESS_FLUSH_SECONDS = 0.05
    writing = threading.Event()
    write = access.access_write

    def slow_write(entries, recalls=()):
        if entries:
            writing.set()
            time.sleep(0.5)
        write(entries, recalls)

    monkeypatch.setattr(access, "access_write", slow_write)
    body = api.post(RECALL, {"query": "tea"}, format="json").json()
    assert writing.wait(5)

    access.recorder.flush()  # what atexit runs

    assert AccessLog.objects.count() == len(body["memories"]) > 0
    connection.close()


def test_a_recall_request_runs_the_same_few_queries_however_much_it_returns(
    api, remembered, django_assert_max_num_queries
):
    api.post(RECALL, {"query": "warm-up"}, format="json")

    # 7 to answer (key, subject, index, three legs, candidates with their sources and vectors) + 8 for
    # the access log, written off the request path in production (RECALL_ACCESS_ASYNC).
    with django_assert_max_num_queries(15):
        body = api.post(RECALL, {"query": "spicy tea in Hangzhou 辣 茶 杭州", "top_k": 3}, format="json").json()

    assert len(body["memories"]) == 3
    assert all(m["source"]["agent"] == "Support Bot" and m["source"]["channel"] for m in body["memories"])


def test_the_recall_answer_is_what_its_serializer_would_write(alice, api, remembered, settings):
    """The view writes the answer out by hand (apps.api.serializers.recall_response_data): it must
    stay the documented RecallResponseSerializer shape — memories with and without a source,
    episodes with their time, in another time zone too."""
    from apps.api import serializers as s
    from apps.memories.recall import recall
    from tests.factories import episode, fact

    fact(alice, "job", "backend engineer, writes Go", category="fact")  # a system write: no agent
    episode(alice, "deployed v2 on 2024-06-12", session_id="s1")
    settings.TIME_ZONE = "Asia/Shanghai"
    for options in ({"include_trace": True}, {"mode": "auto", "query": "谢谢"}):
        options = {"query": "what does she do, drink and deploy? 辣", "top_k": 10} | options
        result = recall(workspace=alice.workspace, subject=alice, **options)

        assert s.recall_response_data(result) == s.RecallResponseSerializer(result).data
    sources = [c.memory.source for c in recall(workspace=alice.workspace, subject=alice, query="Go tea").memories]
    assert None in sources and any(source and source.agent for source in sources)  # both kinds were compared
