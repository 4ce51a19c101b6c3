from datetime import timedelta
from importlib import import_module
from types import SimpleNamespace

import numpy as np
import pytest
from django.apps import apps as registry
from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db.models import Value
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as settings_hypothesis
from hypothesis import strategies as st

from apps.audit.services import Actor
from apps.memories.embeddings.store import index_activate
from apps.memories.models import EmbeddingIndex, Memory
from apps.memories.recall import recall
from apps.memories.recall.block import count_tokens
from apps.memories.recall.scoring import Candidate, mmr, recency
from apps.memories.search import CONFIG, tokens
from apps.memories.services import memory_correct, memory_forget
from tests.factories import episode, fact

# Real commits: embedding runs on commit, as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def texts(result):
    return [c.memory.text for c in result.memories]


def recall_for(subject, query, **options):
    return recall(workspace=subject.workspace, subject=subject, query=query, **options)


HALF_LIVES = {"preference": 90, "fact": 30, "event": 14, "constraint": None}


@pytest.mark.parametrize(
    "category, kind, days, expected",
    [
        ("preference", "profile", 90, 0.5),
        ("fact", "profile", 30, 0.5),
        ("fact", "profile", 60, 0.25),
        ("event", "episode", 14, 0.5),
        ("constraint", "profile", 400, 1.0),
    ],
)
def test_recency_halves_every_half_life_of_the_category(category, kind, days, expected):
    moment = timezone.now() - timedelta(days=days)
    memory = SimpleNamespace(category=category, kind=kind, pinned=False, occurred_at=moment, updated_at=moment)
    assert recency(memory, now=timezone.now(), half_lives=HALF_LIVES) == pytest.approx(expected, rel=1e-3)


def test_pinned_memories_do_not_decay():
    moment = timezone.now() - timedelta(days=365)
    memory = SimpleNamespace(category="event", kind="episode", pinned=True, occurred_at=moment, updated_at=moment)
    assert recency(memory, now=timezone.now(), half_lives=HALF_LIVES) == 1.0


def test_the_score_is_the_weighted_sum_of_its_components(alice, settings):
    fact(alice, "drink", "loves oolong tea 乌龙茶", importance=0.9, days=10)
    fact(alice, "snack", "likes green tea ice cream", importance=0.2, days=100, pinned=True)

    result = recall_for(alice, "what tea does she drink?")

    weights = settings.RECALL_WEIGHTS
    assert len(result.memories) == 2
    for candidate in result.memories:
        c = candidate.components
        expected = (
            weights["similarity"] * c["similarity"]
            + weights["keyword"] * c["keyword"]
            + weights["recency"] * c["recency"]
            + weights["importance"] * c["importance"]
            + (weights["pinned"] if c["pinned"] else 0)
        )
        assert candidate.score == pytest.approx(expected, abs=1e-3)


def test_fresher_and_more_important_memories_rank_higher(alice):
    fact(alice, "trip_a", "planning a trip to Kyoto 京都", category="goal", days=200, importance=0.3)
    fact(alice, "trip_b", "planning a trip to Osaka 大阪", category="goal", days=1, importance=0.9)

    assert texts(recall_for(alice, "which trip is she planning?"))[0] == "trip b: planning a trip to Osaka 大阪"


def test_a_pinned_memory_gets_its_boost(alice, settings):
    settings.RECALL_WEIGHTS = {**settings.RECALL_WEIGHTS, "pinned": 0.5}
    fact(alice, "coffee", "drinks flat white", importance=0.5)
    fact(alice, "tea", "drinks jasmine tea", importance=0.5, pinned=True)

    assert texts(recall_for(alice, "what does she drink in the morning?"))[0] == "tea: drinks jasmine tea"


def test_superseded_expired_deleted_and_other_subjects_memories_never_appear(alice, bob):
    old = fact(alice, "food", "likes very spicy food 爱吃辣")
    memory_correct(memory=old, content="不吃辣 no spicy food at all", actor=Actor.system())
    gone = fact(alice, "snack", "spicy chips")
    memory_forget(memory=gone, actor=Actor.system())
    fact(alice, "dish", "spicy hotpot tonight", expires_at=timezone.now() + timedelta(seconds=1))
    from apps.memories.models import Memory

    Memory.objects.filter(key="dish").update(expires_at=timezone.now() - timedelta(minutes=1))
    fact(bob, "food", "loves spicy Sichuan food 川菜")

    result = recall_for(alice, "spicy food 辣", top_k=20)

    assert texts(result) == ["food: 不吃辣 no spicy food at all"]


def test_recall_reads_nothing_outside_the_subject_and_its_workspace_even_when_asked_for_the_ids(alice, bob, carol):
    """The two hand-written statements start from the hard filters: another workspace's person
    (same words, even the same external id would not matter), another subject of the same
    workspace and alice's own forgotten memory are not read, whatever ids reach them."""
    from apps.memories.recall import engine, reads

    own = fact(alice, "tea", "drinks oolong tea every morning", category="preference")
    forgotten = fact(alice, "snack", "oolong tea biscuits")
    memory_forget(memory=forgotten, actor=Actor.system())
    strangers = [fact(carol, "tea", "drinks oolong tea every morning"), fact(bob, "tea", "oolong tea, lots")]
    base = reads.Base.of(engine.recall_queryset(workspace=alice.workspace, subject=alice, now=timezone.now()))

    found = reads.legs(base, terms=["oolong", "tea"], keyword_limit=50, recent=5, asked_keys={"tea"}, needs=True)
    asked = {own.id, forgotten.id, *(m.id for m in strangers)}
    fetched = reads.candidates(base, asked, model_id=EmbeddingIndex.objects.get(state="active").model_id)

    assert set(found.keyword) == set(found.recent) == found.profile == {own.id}
    assert set(fetched.memories) == set(fetched.vectors) == {own.id}
    assert fetched.memories[own.id].text == own.text and fetched.memories[own.id].source == own.source


def test_mmr_prefers_a_different_memory_over_a_near_duplicate():
    def candidate(name, score, vector):
        vector = np.asarray(vector, dtype=np.float32)
        return Candidate(memory=SimpleNamespace(id=name), score=score, vector=vector / np.linalg.norm(vector))

    a, a_again, b = candidate("a", 0.9, [1, 0, 0]), candidate("a'", 0.89, [1, 0.01, 0]), candidate("b", 0.6, [0, 1, 0])

    assert [c.memory.id for c in mmr([a, a_again, b], k=2, lam=0.7)] == ["a", "b"]


def greedy_mmr_by_definition(candidates, k, lam):
    """MMR as written in the papers: repeatedly pick argmax(lam·score − (1−lam)·max sim to picks);
    ties go to the higher score, then the smaller memory id (recall's documented tie-break)."""
    remaining, picked = sorted(candidates, key=lambda c: (-c.score, str(c.memory.id))), []
    while remaining and len(picked) < k:

        def marginal(c):
            sims = [float(c.vector @ p.vector) for p in picked if c.vector is not None and p.vector is not None]
            return lam * c.score - (1 - lam) * max(sims, default=0.0)

        best = max(remaining, key=marginal)
        picked.append(best)
        remaining.remove(best)
    return picked


@settings_hypothesis(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 1), st.one_of(st.none(), st.lists(st.floats(-1, 1), min_size=4, max_size=4))),
        max_size=25,
    ),
    st.integers(1, 10),
)
def test_mmr_picks_what_the_greedy_definition_picks(items, k):
    candidates = []
    for number, (score, vector) in enumerate(items):
        if vector is not None:
            vector = np.asarray(vector, dtype=np.float32)
            norm = np.linalg.norm(vector)
            vector = vector / norm if norm > 1e-3 else None
        candidates.append(Candidate(memory=SimpleNamespace(id=number), score=score, vector=vector))

    expected = greedy_mmr_by_definition(candidates, k, 0.7)
    picked = mmr(candidates, k=k, lam=0.7)
    assert len(picked) == len(expected)
    # Each pick is the definition's best of what was left; a near-tie (float32 rounding of the similarity
    # matrix against one dot product at a time) may go either way, so marginals are compared, not ids.
    for step, choice in enumerate(picked):
        before, left = picked[:step], [c for c in candidates if c not in picked[:step]]

        def marginal(c, before=before):
            sims = [float(c.vector @ p.vector) for p in before if c.vector is not None and p.vector is not None]
            return 0.7 * c.score - 0.3 * max(sims, default=0.0)

        assert marginal(choice) >= max(map(marginal, left)) - 1e-5


def test_mmr_drops_a_near_duplicate_in_a_real_recall(alice):
    episode(alice, "Asked how to reset the router password", days=1)
    episode(alice, "Asked how to reset the router's password", days=1)
    episode(alice, "Asked which router model to buy", days=2)

    result = recall_for(alice, "router questions", top_k=2)

    assert "Asked which router model to buy" in texts(result)


def test_the_token_budget_is_respected(alice):
    for number in range(30):
        fact(alice, f"note_{number}", f"第{number}条笔记：喜欢在周末去公园散步和读书 and walking in the park")

    result = recall_for(alice, "周末喜欢做什么？", top_k=30, token_budget=120)

    assert 0 < result.used_tokens <= 120
    assert count_tokens(result.memory_block) == result.used_tokens
    assert 0 < len(result.memories) < 30


def test_chinese_text_is_not_under_counted():
    assert count_tokens("我不吃辣") == 4
    assert count_tokens("I don't eat spicy food") == 6


def test_a_chinese_query_finds_an_english_memory_and_the_reverse(alice):
    fact(alice, "diet", "does not eat spicy food", category="constraint")
    fact(alice, "pet", "养了一只叫年糕的猫", category="fact")
    fact(alice, "editor", "uses Neovim for coding", category="preference")

    assert texts(recall_for(alice, "她能吃辣吗？", top_k=1)) == ["diet: does not eat spicy food"]
    assert texts(recall_for(alice, "does she have a cat?", top_k=1)) == ["pet: 养了一只叫年糕的猫"]


def test_when_the_embedder_fails_recall_answers_from_keywords(alice, settings):
    fact(alice, "drink", "loves oolong tea 乌龙茶")
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
    settings.EMBEDDINGS_TIMEOUT = 0.2
    remote = EmbeddingIndex.objects.create(name="openai:fake", model_id="openai:fake@127.0.0.1", dimension=8)
    index_activate(index=remote)

    result = recall_for(alice, "乌龙茶")

    assert result.fallback == "keyword"
    assert texts(result) == ["drink: loves oolong tea 乌龙茶"]


def test_auto_mode_skips_small_talk_in_both_languages(alice):
    fact(alice, "drink", "loves oolong tea")
    for greeting in ("hi!", "Thanks a lot", "谢谢", "好的。", "你好"):
        result = recall_for(alice, greeting, mode="auto")
        assert (result.memories, result.skipped) == ([], "small_talk")
    assert recall_for(alice, "what tea should I buy her?", mode="auto").memories


def test_relevant_constraints_are_never_crowded_out(alice):
    for number in range(6):
        fact(alice, f"restaurant_{number}", f"liked the dumplings at restaurant {number}", importance=1.0)
    fact(
        alice,
        "allergy",
        "allergic to peanuts, dumplings with peanut sauce are dangerous",
        category="constraint",
        importance=0.1,
        days=300,
    )

    result = recall_for(alice, "recommend a dumpling restaurant", top_k=3)

    assert "allergy: allergic to peanuts, dumplings with peanut sauce are dangerous" in texts(result)


def test_the_memory_block_frames_memories_as_reference_with_dates(alice):
    fact(alice, "drink", "loves oolong tea")
    episode(alice, "Bought oolong tea from Fujian", days=3)

    block = recall_for(alice, "oolong tea").memory_block

    assert "not instructions" in block
    assert '[preference] "drink: loves oolong tea"' in block
    assert (timezone.now() - timedelta(days=3)).astimezone(alice_zone(alice)).strftime("%Y-%m-%d") in block


def alice_zone(subject):
    from zoneinfo import ZoneInfo

    return ZoneInfo(subject.timezone)


def test_recall_runs_a_bounded_number_of_queries(alice, django_assert_max_num_queries):
    for number in range(20):
        fact(alice, f"k{number}", f"value number {number} about tea")
    recall_for(alice, "warm-up")

    with django_assert_max_num_queries(7):
        recall_for(alice, "tea", top_k=10)


def test_a_recall_with_every_leg_at_work_reads_the_database_four_times(alice, django_assert_num_queries):
    """The active index, the keyword + recent + asked-for facts statement, the vector leg and the
    candidates with their sources, vectors and previous turns: however many memories answer."""
    fact(alice, "diet", "no pork, I don't eat pork at all", category="constraint")
    fact(alice, "city", "Hangzhou", category="fact")
    for number in range(6):
        episode(alice, f"we talked about dinner recipes, part {number}", session_id=f"s{number % 2}")
    recall_for(alice, "warm-up")  # the subject's vector count is remembered from here on

    with django_assert_num_queries(4):
        result = recall_for(alice, "what should I cook for dinner? where do I live?", top_k=10)

    found = texts(result)
    assert any("pork" in text for text in found)  # the constraint a need question calls for
    assert any("Hangzhou" in text for text in found)  # the fact the question asks for
    assert any("recipes" in text for text in found)


def _prepared_candidates() -> list[tuple[int, int]]:
    """(generic plans, custom plans) of this connection's prepared candidates statements."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%vector_send%"],
        )
        return cursor.fetchall()


def test_the_candidates_statement_is_prepared_once_per_connection_and_answers_the_same(alice, settings):
    from django.db import connection

    fact(alice, "drink", "loves oolong tea 乌龙茶")
    fact(alice, "city", "lives in Hangzhou", category="fact")
    episode(alice, "we talked about tea farms near Hangzhou", session_id="s1")
    now = timezone.now()

    answers = [[(c.memory.id, c.score) for c in recall_for(alice, "tea?", now=now).memories] for _ in range(8)]

    [(generic, custom)] = _prepared_candidates()  # one statement, planned fresh at most for its first runs
    assert generic + custom == 8
    assert answers == [answers[0]] * 8 and answers[0]

    settings.DB_PREPARED_STATEMENTS = False  # behind a pooler that cannot keep them: nothing prepared, same answers
    connection.close()
    assert [(c.memory.id, c.score) for c in recall_for(alice, "tea?", now=now).memories] == answers[0]
    assert _prepared_candidates() == []


def test_a_repeated_query_is_embedded_once_and_answered_the_same(alice, monkeypatch):
    from apps.memories.embeddings import get_embedder

    fact(alice, "drink", "loves oolong tea 乌龙茶")
    fact(alice, "city", "lives in Hangzhou", category="fact")
    embedder = get_embedder()
    calls = []
    original = embedder.embed_query
    monkeypatch.setattr(embedder, "embed_query", lambda text: calls.append(text) or original(text))

    now = timezone.now()  # recency moves with the clock
    first, second = (
        recall_for(alice, "what does she drink?", now=now),
        recall_for(alice, "what does she drink?", now=now),
    )
    recall_for(alice, "where does she live?")

    assert calls == ["what does she drink?", "where does she live?"]
    assert [(c.memory.id, c.score) for c in first.memories] == [(c.memory.id, c.score) for c in second.memories]
    assert first.fallback is None and second.fallback is None


def test_the_query_cache_can_be_turned_off(alice, monkeypatch, settings):
    from apps.memories.embeddings import get_embedder

    settings.RECALL_QUERY_CACHE = 0
    fact(alice, "drink", "loves oolong tea 乌龙茶")
    embedder = get_embedder()
    calls = []
    original = embedder.embed_query
    monkeypatch.setattr(embedder, "embed_query", lambda text: calls.append(text) or original(text))

    recall_for(alice, "tea?")
    recall_for(alice, "tea?")

    assert calls == ["tea?", "tea?"]


def test_when_this_process_is_busy_embedding_recall_answers_from_keywords_at_once(alice, monkeypatch):
    from apps.memories.embeddings import get_embedder
    from apps.memories.recall import engine

    fact(alice, "drink", "loves oolong tea 乌龙茶")
    embedder = get_embedder()
    monkeypatch.setattr(embedder, "embed_query", lambda text: pytest.fail("a busy process must not embed"))
    # Two embeddings of 0.2 s each are in flight: waiting for them would exceed the 0.05 s budget.
    monkeypatch.setattr(engine.admission, "in_flight", 2)
    monkeypatch.setattr(engine.admission, "seconds", 0.2)

    result = recall_for(alice, "乌龙茶")

    assert result.fallback == "keyword"
    assert texts(result) == ["drink: loves oolong tea 乌龙茶"]
    monkeypatch.setattr(engine.admission, "in_flight", 0)  # the embedder is free again: no fallback
    monkeypatch.undo()
    assert recall_for(alice, "乌龙茶").fallback is None


def test_concurrent_query_embeddings_go_as_one_batch_with_the_same_vectors():
    import threading

    from apps.memories.recall.engine import QueryBatcher

    class Embedder:
        """embed_query blocks until released, so that the other queries queue behind it."""

        def __init__(self):
            self.entered, self.release, self.batches = threading.Event(), threading.Event(), []

        def embed_query(self, text):
            self.entered.set()
            self.release.wait(5)
            self.batches.append([text])
            return np.array([len(text), 1.0], dtype=np.float32)

        def embed_queries(self, texts):
            self.batches.append(list(texts))
            return np.array([[len(text), 1.0] for text in texts], dtype=np.float32)

    embedder, batcher, vectors = Embedder(), QueryBatcher(), {}

    def ask(text):
        vectors[text] = batcher.embed(embedder, text)

    first = threading.Thread(target=ask, args=("a",))
    first.start()
    assert embedder.entered.wait(5)  # "a" is being embedded
    others = [threading.Thread(target=ask, args=(text,)) for text in ("bb", "ccc")]
    for thread in others:
        thread.start()
    while len(batcher._waiting) < 2:  # both queued behind it
        pass
    embedder.release.set()
    for thread in [first, *others]:
        thread.join(5)

    assert embedder.batches[0] == ["a"] and sorted(embedder.batches[1]) == ["bb", "ccc"] and len(embedder.batches) == 2
    assert {text: list(vector) for text, vector in vectors.items()} == {
        "a": [1.0, 1.0],
        "bb": [2.0, 1.0],
        "ccc": [3.0, 1.0],
    }


def test_a_failed_batch_fails_each_of_its_recalls_with_the_error():
    from apps.memories.embeddings import EmbeddingError
    from apps.memories.recall.engine import QueryBatcher

    class Broken:
        def embed_query(self, text):
            raise EmbeddingError("down")

    with pytest.raises(EmbeddingError, match="down"):
        QueryBatcher().embed(Broken(), "tea?")


def test_keyword_recall_reads_traditional_and_simplified_chinese_as_one(alice, settings):
    fact(alice, "job_title", "在新竹當軟體工程師")
    fact(alice, "drink", "每天下午喝一杯乌龙茶")
    fact(alice, "city", "住在台北")
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"  # keywords only: nothing listens on the discard port
    settings.EMBEDDINGS_TIMEOUT = 0.2
    remote = EmbeddingIndex.objects.create(name="openai:fake", model_id="openai:fake@127.0.0.1", dimension=8)
    index_activate(index=remote)

    def keyword_hits(query):
        result = recall_for(alice, query)
        assert result.fallback == "keyword"
        return [c.memory.text for c in result.memories if c.keyword > 0]

    assert keyword_hits("工程师") == ["job title: 在新竹當軟體工程師"]
    assert keyword_hits("烏龍茶") == ["drink: 每天下午喝一杯乌龙茶"]
    assert keyword_hits("台北") == ["city: 住在台北"]  # and Traditional as typed, as before


def test_the_migration_reindexes_traditional_memories_written_before_the_fold(alice):
    written = fact(alice, "drink", "每天喝烏龍茶")
    plain = fact(alice, "city", "住在杭州")
    # as the previous version indexed it: the Traditional characters as typed
    Memory.objects.filter(pk=written.pk).update(
        search=SearchVector(Value(" ".join(tokens(written.text))), config=CONFIG)
    )

    import_module("apps.memories.migrations.0014_search_simplified").reindex(registry, None)

    def indexed(memory):
        return Memory.objects.filter(pk=memory.pk, search=SearchQuery("乌龙茶", config=CONFIG)).exists()

    assert indexed(written) and not indexed(plain)
