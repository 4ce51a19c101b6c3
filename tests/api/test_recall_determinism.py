"""Same data, same query → same ranked list, over HTTP and in-process, whatever the access
counters say (an UPDATE of them rewrites rows, which changes the order a scan returns them in)."""

import random

import pytest
from django.db.models import F

from apps.accounts.models import Subject
from apps.memories.models import Memory
from apps.memories.recall import recall
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)

CITIES = ["Hangzhou", "Suzhou", "Chengdu", "Xiamen", "Qingdao", "Kunming", "Dalian", "Harbin", "Lhasa", "Guilin"]
THINGS = ["tea", "coffee", "noodles", "dumplings", "hotpot", "jazz", "hiking", "chess", "cycling", "painting"]


def queries() -> list[str]:
    # Many memories share their words, so keyword ranks tie far beyond the leg's cap.
    rows = [f"which city did she visit for {thing}?" for thing in THINGS]
    rows += [f"trip to {city}" for city in CITIES]
    rows += [f"does she like {thing}" for thing in THINGS]
    rows += [f"{thing} in {city}" for thing, city in zip(THINGS, CITIES, strict=False)]
    rows += [
        "visited a city",
        "她去过哪些城市",
        "喜欢喝什么",
        "最近的旅行",
        "city trip",
        "what did she enjoy",
        "travel plans",
        "weekend",
        "food",
        "music",
    ]
    assert len(rows) == 50
    return rows


@pytest.fixture
def many_alike(alice: Subject) -> Subject:
    for i, city in enumerate(CITIES):
        for j, thing in enumerate(THINGS[:4]):
            episode(alice, f"Alice visited the city of {city} for the {thing}.", days=(i * 4 + j) % 7)
    for thing in THINGS:
        fact(alice, f"likes {thing}", f"likes {thing}", category="preference", days=3)
    fact(alice, "city", "lives in Hangzhou", category="fact")
    episode(alice, "她上周去了苏州旅行，喝了很多茶。", days=2)
    return alice


def in_process(acme, alice, query: str) -> list[str]:
    return [str(c.memory.id) for c in recall(workspace=acme, subject=alice, query=query, top_k=10).memories]


def test_http_and_in_process_recall_return_the_same_list_after_the_counters_changed(api, acme, many_alike):
    before = {q: in_process(acme, many_alike, q) for q in queries()}
    # Counters change in a random order (each UPDATE writes a new row version elsewhere in the heap).
    ids = list(Memory.objects.values_list("id", flat=True))
    random.Random(7).shuffle(ids)
    for n, memory_id in enumerate(ids):
        Memory.objects.filter(id=memory_id).update(access_count=F("access_count") + n)

    for query in queries():
        body = api.post("/api/v1/subjects/alice/recall", {"query": query, "top_k": 10}, format="json").json()
        assert [m["id"] for m in body["memories"]] == before[query], query  # the HTTP call also counts reads
        assert in_process(acme, many_alike, query) == before[query], query
    assert Memory.objects.filter(access_count__gt=0).count() > 0
