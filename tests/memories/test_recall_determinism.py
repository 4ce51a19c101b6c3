"""Recall is deterministic: the same data and query give the same ordered memories and the same
memory_block over HTTP (live server: key auth, serializers, view) and in-process, whatever the
access counters say and in whatever order the rows lie in the heap.

The subject holds a few hundred memories built to tie: identical episodes written on the same
moment (identical vectors, keyword ranks and recency, so identical scores), near-identical
episodes and facts sharing words in English, Chinese and both, more keyword hits than the keyword
leg keeps. Each test first asserts those ties are really there, so that breaking a tie by the
order rows come back in would fail it.
"""

import random
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import Agent, Subject
from apps.accounts.services import apikey_issue
from apps.audit.models import AccessLog
from apps.audit.services import Actor
from apps.memories.embeddings import get_embedder, store
from apps.memories.models import Memory, MemoryEmbedding
from apps.memories.recall import engine, reads, recall
from apps.memories.recall.access import Access, Recall, recorder
from apps.memories.search import query_terms
from apps.memories.services import episode_record, fact_upsert
from tests.security.live_http import LiveClient

# Real commits: memories are embedded on commit, and the live server reads them.
pytestmark = pytest.mark.django_db(transaction=True)

COPIES = 10  # each of these episodes is written this many times, at one moment
IDENTICAL = [
    "Refund submitted.",
    "退款已提交",
    "退款已提交 refund submitted",
    "Deployed version two to production.",
    "部署了 v2 版本",
    "上周已经处理过这个客户的投诉",
    "Handled the customer's complaint last week.",
    "Alice went hiking near Hangzhou.",
    "她在杭州喝了龙井茶",
    "Weekly sync with the data team about PostgreSQL.",
    "和数据团队开周会，讨论 PostgreSQL 迁移",
    "Alice asked again about tea recommendations.",
]
CITIES = ["Hangzhou", "Suzhou", "Chengdu", "Xiamen", "Qingdao", "Kunming", "Dalian", "Guilin"]
THINGS = ["tea", "coffee", "hotpot", "dumplings", "hiking", "jazz", "noodles"]
CITIES_ZH = ["杭州", "苏州", "成都", "厦门", "青岛", "昆明", "大连", "桂林"]
DOINGS_ZH = ["喝茶", "吃火锅", "爬山", "看展览", "骑车"]
PREFERENCES = [(f"likes {thing}", f"likes {thing}") for thing in THINGS + ["chess", "cycling", "painting"]]
PREFERENCES += [
    (f"喜欢{thing}", f"喜欢{thing}") for thing in ["喝茶", "喝咖啡", "吃面", "吃饺子", "火锅", "爵士乐", "爬山", "下棋"]
]
PREFERENCES += [(f"prefers {thing}", f"prefers {thing} 茶") for thing in ["green tea", "oolong tea", "black tea"]]
FACTS = [
    ("team database", "team uses PostgreSQL"),
    ("database", "PostgreSQL 16"),
    ("数据库", "我们用的是 PostgreSQL"),
    ("主要编程语言", "Go"),
    ("编程语言偏好", "Go"),
    ("language", "Golang"),
    ("city", "lives in Hangzhou"),
    ("城市", "住在杭州"),
    ("role", "backend engineer"),
    ("职业", "做后端"),
    ("editor", "uses vim for Go"),
]
CONSTRAINTS = [
    ("examples", "no Python examples"),
    ("示例", "别给我 Python 示例"),
    ("examples language", "no python examples please"),
    ("report language", "以后报告都用中文"),
    ("reply language", "reply in Chinese 中文"),
    ("spice", "no spicy food"),
    ("辣", "不吃辣"),
]
GOALS = [("health", "低碳水晚饭 low-carb dinners"), ("fitness", "working out 在健身"), ("dinner", "low-carb dinners")]

QUERIES = [
    "refund",
    "was the refund submitted?",
    "昨天我们聊了什么",
    "customer complaint",
    "hiking",
    "tea",
    "which city did she visit for the tea?",
    "trip to Hangzhou",
    "Chengdu hotpot",
    "earlier you mentioned something",
    "PostgreSQL",
    "write me a SQL query",
    "what language does she code in",
    "python example",
    "spicy food",
    "dinner ideas",
    "what does she like",
    "what happened recently?",
    "jazz music",
    "last time we talked about refunds",
    "退款",
    "退款进度怎么样了",
    "部署",
    "投诉",
    "爬山",
    "喝茶",
    "她去过哪些城市",
    "杭州",
    "成都火锅",
    "周会",
    "数据库用什么",
    "帮我写个 SQL",
    "主要编程语言",
    "编程语言偏好",
    "别给我 Python 示例",
    "晚饭推荐点什么",
    "最近发生了什么",
    "上次说到哪了",
    "Hangzhou 喝茶",
    "refund 退款",
    "PostgreSQL 迁移",
    "hiking 爬山 in Hangzhou",
    "tea 茶 coffee",
    "Go 语言 backend",
    "v2 部署 production",
    "team 周会 data",
    "火锅 hotpot Chengdu",
    "喜欢 jazz 爵士乐",
    "晚饭推荐点什么？she is coming over tonight",
    "dumplings 饺子",
]
# Short and long lists, tight and loose budgets: the cut-offs fall in different places.
SHAPES = [
    {"top_k": 8, "token_budget": 800},
    {"top_k": 5, "token_budget": 300},
    {"top_k": 20, "token_budget": 2000},
    {"top_k": 12, "token_budget": 500},
]


def request_of(n: int, query: str) -> dict:
    return {"query": query, **SHAPES[n % len(SHAPES)]}


@pytest.fixture
def alike(alice: Subject, settings) -> Subject:
    """A few hundred memories of Alice that tie with each other in every way recall can tie."""
    # A keyword cut-off of 20 falls inside ties for this data (at the default 40 too few queries do).
    settings.RECALL_KEYWORD_CANDIDATES = 20
    system = Actor.system()
    moment = timezone.now().replace(microsecond=0) - timedelta(hours=2)

    def day(n: int):
        return moment - timedelta(days=n)

    for n, text in enumerate(IDENTICAL):
        for _ in range(COPIES):
            episode_record(subject=alice, text=text, occurred_at=day(n % 4), actor=system)
    for i, city in enumerate(CITIES):
        for j, thing in enumerate(THINGS):
            episode_record(
                subject=alice, text=f"Alice visited {city} for the {thing}.", occurred_at=day((i + j) % 5), actor=system
            )
    for i, city in enumerate(CITIES_ZH):
        for j, doing in enumerate(DOINGS_ZH):
            episode_record(subject=alice, text=f"她去{city}{doing}", occurred_at=day((i + j) % 5), actor=system)
    for i, _city in enumerate(CITIES[:6]):
        for j, thing in enumerate(THINGS[:6]):
            episode_record(
                subject=alice,
                text=f"在{CITIES_ZH[i]} had {thing} with the team",
                actor=system,
                occurred_at=day((i * j) % 3),
                importance=0.7,
            )
    # Episodes written on one moment tie in the recent leg too (newest first, then last updated).
    Memory.objects.filter(subject=alice, kind=Memory.Kind.EPISODE).update(updated_at=F("occurred_at"))
    profile = [(key, value, "preference") for key, value in PREFERENCES]
    profile += [(key, value, "fact") for key, value in FACTS]
    profile += [(key, value, "constraint") for key, value in CONSTRAINTS]
    profile += [(key, value, "goal") for key, value in GOALS]
    for n, (key, value, category) in enumerate(profile):
        memory = fact_upsert(subject=alice, key=key, value=value, category=category, actor=system).memory
        Memory.objects.filter(pk=memory.pk).update(updated_at=day(n % 3), valid_from=day(n % 3))
    return alice


@pytest.fixture
def bot_key(support_bot: Agent) -> str:
    _, raw_key = apikey_issue(agent=support_bot, scopes=["read"])
    return raw_key


def in_process(subject: Subject, n: int, query: str, **options) -> dict:
    result = recall(workspace=subject.workspace, subject=subject, **request_of(n, query), **options)
    return {
        "ids": [str(c.memory.id) for c in result.memories],
        "memory_block": result.memory_block,
        "used_tokens": result.used_tokens,
        "fallback": result.fallback,
        "scores": [(c.score, c.components) for c in result.memories],
    }


def over_http(client: LiveClient, subject: Subject, n: int, query: str) -> dict:
    status, body = client.call("POST", f"/api/v1/subjects/{subject.external_id}/recall", request_of(n, query))
    assert status == 200, body
    return {
        "ids": [m["id"] for m in body["memories"]],
        "memory_block": body["memory_block"],
        "used_tokens": body["used_tokens"],
        "fallback": body["fallback"],
    }


def without_scores(answer: dict) -> dict:
    return {name: value for name, value in answer.items() if name != "scores"}


def heap_order(model) -> list:
    """The ids of a table in the order its rows lie in the heap (what a sequential scan returns)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {model._meta.db_table} ORDER BY ctid")
        return [row[0] for row in cursor.fetchall()]


def rewrite_rows_in_random_order(subject: Subject, seed: int) -> None:
    """UPDATE every memory and vector row, one at a time in a random order: each UPDATE writes a new
    row version, so the heap holds the rows in another order (and index entries point elsewhere)."""
    shuffle = random.Random(seed).shuffle
    memory_ids = list(Memory.objects.filter(subject=subject).values_list("id", flat=True))
    shuffle(memory_ids)
    for n, memory_id in enumerate(memory_ids):
        Memory.objects.filter(id=memory_id).update(access_count=F("access_count") + n % 7)
    vector_ids = list(MemoryEmbedding.objects.filter(subject=subject).values_list("id", flat=True))
    shuffle(vector_ids)
    for vector_id in vector_ids:
        MemoryEmbedding.objects.filter(id=vector_id).update(model_id=F("model_id"))


@contextmanager
def sequential_scans():
    """Queries on this connection scan tables in heap order instead of reading an index."""
    switches = ("enable_indexscan", "enable_indexonlyscan", "enable_bitmapscan")
    with connection.cursor() as cursor:
        for switch in switches:
            cursor.execute(f"SET {switch} = off")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            for switch in switches:
                cursor.execute(f"RESET {switch}")


def counters(subject: Subject) -> dict:
    return dict(Memory.objects.filter(subject=subject).values_list("id", "access_count"))


def assert_the_data_ties(subject: Subject) -> None:
    """The ties the tests rely on are there: keyword hits tied across the keyword leg's cut-off,
    vector distances tied across the vector leg's cut-off, and equal scores among the candidates
    MMR chooses from, one of them picked and the other not."""
    assert len(QUERIES) == 50 and Memory.objects.filter(subject=subject).count() >= 250
    base = engine.recall_queryset(workspace=subject.workspace, subject=subject, now=timezone.now())
    cap, pool = django_settings.RECALL_KEYWORD_CANDIDATES, django_settings.RECALL_CANDIDATES
    keyword_ties = vector_ties = 0
    index = store.active_index()
    embedder = get_embedder(index.name)
    for query in QUERIES:
        ranks = sorted(
            reads.legs(
                reads.Base.of(base),
                terms=query_terms(query),
                keyword_limit=10_000,
                recent=0,
                asked_keys=set(),
                needs=False,
            ).keyword.values(),
            reverse=True,
        )
        keyword_ties += len(ranks) > cap and ranks[cap - 1] == ranks[cap]
        nearest = store.nearest(
            index=index, memories=base, subject=subject, limit=10_000, query_vector=embedder.embed_query(query)
        )
        vector_ties += len(nearest) > pool and nearest[pool - 1][1] == nearest[pool][1]
    assert keyword_ties >= 10, keyword_ties
    assert vector_ties >= 5, vector_ties
    newest = list(
        base.order_by(F("occurred_at").desc(nulls_last=True), "-updated_at").values_list("occurred_at", "updated_at")[
            :6
        ]
    )
    assert newest[4] == newest[5]  # the recent leg's cut-off (5) falls in a tie

    seen = []
    real_mmr = engine.mmr

    def watching_mmr(candidates, **options):
        picked = real_mmr(candidates, **options)
        seen.append((candidates, picked))
        return picked

    engine.mmr = watching_mmr
    try:
        for n, query in enumerate(QUERIES):
            in_process(subject, n, query)
    finally:
        engine.mmr = real_mmr
    tied_at_the_cut = 0
    for candidates, picked in seen:
        picked_ids = {c.memory.id for c in picked}
        scores = Counter(c.score for c in candidates)
        tied = [c for c in candidates if scores[c.score] > 1]
        tied_at_the_cut += any(
            a.score == b.score and a.memory.id in picked_ids and b.memory.id not in picked_ids
            for a in tied
            for b in tied
        )
    assert tied_at_the_cut >= 10, tied_at_the_cut


def test_http_and_in_process_recall_agree_on_50_queries_after_the_counters_changed(
    alike, bot_key, live_server, settings
):
    assert_the_data_ties(alike)
    settings.RECALL_ACCESS_ASYNC = True  # as in production: a background thread writes the access log
    settings.RECALL_ACCESS_FLUSH_SECONDS = 0.05
    client = LiveClient(live_server.url, key=bot_key)
    heap_before = heap_order(Memory), heap_order(MemoryEmbedding)

    over_the_api = [over_http(client, alike, n, query) for n, query in enumerate(QUERIES)]

    read = sum(len(answer["ids"]) for answer in over_the_api)
    deadline = time.monotonic() + 10
    while AccessLog.objects.count() < read and time.monotonic() < deadline:
        time.sleep(0.05)  # the writer thread's batches
    recorder.flush()
    assert AccessLog.objects.count() == read
    reads = Counter(memory_id for answer in over_the_api for memory_id in answer["ids"])
    assert {str(k): v for k, v in counters(alike).items() if v} == reads
    assert len(reads) >= 50
    rewrite_rows_in_random_order(alike, seed=14)
    assert heap_order(Memory) != heap_before[0] and heap_order(MemoryEmbedding) != heap_before[1]

    for n, query in enumerate(QUERIES):
        assert over_the_api[n]["fallback"] is None, query
        assert without_scores(in_process(alike, n, query)) == over_the_api[n], query


def test_a_recall_run_twice_in_process_is_identical_when_the_counters_changed_in_between(alike, support_bot, settings):
    assert_the_data_ties(alike)
    settings.RECALL_ACCESS_ASYNC = False  # the access writer writes this batch at once
    now = timezone.now()
    first = [in_process(alike, n, query, now=now) for n, query in enumerate(QUERIES)]
    before = counters(alike)
    # What the API records for each of those recalls, through the access writer, in a random order.
    entries = [
        Access(
            workspace_id=alike.workspace_id,
            agent_id=support_bot.pk,
            subject_id=alike.pk,
            memory_id=uuid.UUID(memory_id),
            rank=rank,
            score=0.5,
        )
        for answer in first
        for rank, memory_id in enumerate(answer["ids"], start=1)
    ]
    random.Random(41).shuffle(entries)
    recorder.record(
        entries,
        Recall(
            workspace_id=alike.workspace_id, agent_id=support_bot.pk, took_ms=1.0, results=len(entries), fallback=""
        ),
    )
    read = Counter(entry.memory_id for entry in entries)
    assert AccessLog.objects.count() == len(entries) and len(read) >= 50
    assert {k: v - before[k] for k, v in counters(alike).items() if v != before[k]} == read
    heap_before = heap_order(Memory)
    rewrite_rows_in_random_order(alike, seed=41)
    assert heap_order(Memory) != heap_before

    with sequential_scans():  # and the database reads them in heap order
        second = [in_process(alike, n, query, now=now) for n, query in enumerate(QUERIES)]

    assert all(answer["fallback"] is None and answer["ids"] for answer in first)
    for n, query in enumerate(QUERIES):
        assert second[n] == first[n], query
