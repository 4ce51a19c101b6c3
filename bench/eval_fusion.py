"""Compare keyword scorings, keyword candidate counts and fusions on LoCoMo dev and the own set
(hybrid recall), in one throw-away database: `.venv/bin/python bench/eval_fusion.py`.
The choice of the defaults in settings.py (RECALL_KEYWORD_*, RECALL_FUSION) came from this table."""

import os

from common import setup_django, throwaway_database

setup_django()

from django.conf import settings  # noqa: E402

from tests import public_eval, recall_eval  # noqa: E402

W = settings.RECALL_WEIGHTS
CONFIGS = {
    "weighted ts_rank 20": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="ts_rank", RECALL_KEYWORD_CANDIDATES=20),
    "weighted bm25 20": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="bm25", RECALL_KEYWORD_CANDIDATES=20),
    "weighted bm25 60": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="bm25", RECALL_KEYWORD_CANDIDATES=60),
    "weighted bm25 60 kw.35": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="bm25", RECALL_KEYWORD_CANDIDATES=60,
                                   RECALL_WEIGHTS={**W, "similarity": 0.5, "keyword": 0.35}),
    "weighted ts_rank 40 kw.25": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="ts_rank", RECALL_KEYWORD_CANDIDATES=40,
                                      RECALL_WEIGHTS={**W, "similarity": 0.6, "keyword": 0.25}),
    "weighted ts_rank 40 kw.3": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="ts_rank", RECALL_KEYWORD_CANDIDATES=40,
                                     RECALL_WEIGHTS={**W, "similarity": 0.55, "keyword": 0.3}),
    "weighted bm25 40 kw.25": dict(RECALL_FUSION="weighted", RECALL_KEYWORD_SCORING="bm25", RECALL_KEYWORD_CANDIDATES=40,
                                   RECALL_WEIGHTS={**W, "similarity": 0.6, "keyword": 0.25}),
    "rrf ts_rank 60": dict(RECALL_FUSION="rrf", RECALL_KEYWORD_SCORING="ts_rank", RECALL_KEYWORD_CANDIDATES=60),
    "rrf bm25 60": dict(RECALL_FUSION="rrf", RECALL_KEYWORD_SCORING="bm25", RECALL_KEYWORD_CANDIDATES=60),
}


def main() -> None:
    from django.test import override_settings

    with throwaway_database():
        memories, queries = recall_eval.load()
        own = recall_eval.build(memories)
        corpora = public_eval.load_locomo()
        locomo = public_eval.build(corpora, slug="fusion-locomo")
        print(f"{'config':<24} {'kw R@5':>7} {'kw R@10':>7} {'hy R@5':>7} {'hy R@10':>7} {'own R@5':>7} {'own MRR':>7}")
        only = os.environ.get("FUSION_CONFIGS")
        for name, overrides in CONFIGS.items():
            if only and name not in only.split(";"):
                continue
            keyword = public_eval.evaluate(*locomo, corpora, public_eval.LEG_SETS["keyword"], **dict(overrides))["all"]
            hybrid = public_eval.evaluate(*locomo, corpora, public_eval.LEG_SETS["hybrid"], **dict(overrides))["all"]
            with override_settings(**overrides):
                mine = recall_eval.evaluate(*own, queries, recall_eval.LEG_SETS["hybrid"])["all"]
            print(f"{name:<24} {keyword['R@5']:>7.3f} {keyword['R@10']:>7.3f} {hybrid['R@5']:>7.3f} {hybrid['R@10']:>7.3f} "
                  f"{mine['recall@5']:>7.3f} {mine['mrr']:>7.3f}", flush=True)


if __name__ == "__main__":
    main()
