"""`make eval`: recall@1, recall@5 and MRR per language for vector-only, keyword-only and hybrid
recall over tests/data/recall_eval.jsonl, in a throw-away database."""

import time

from common import setup_django, throwaway_database

setup_django()

from tqdm import tqdm  # noqa: E402

from tests.recall_eval import LEG_SETS, build, evaluate, load  # noqa: E402


def main() -> None:
    memories, queries = load()
    with throwaway_database():
        started = time.perf_counter()
        workspace, subjects, ids = build(memories, progress=lambda rows: tqdm(rows, desc="write + embed", unit="memory"))
        print(f"{len(memories)} memories of {len(subjects)} subjects written in {time.perf_counter() - started:.1f} s; "
              f"{len(queries)} queries")
        print(f"{'legs':<8} {'lang':<6} {'n':>4} {'R@1':>6} {'R@5':>6} {'MRR':>6}")
        for name, legs in LEG_SETS.items():
            scores = evaluate(workspace, subjects, ids, queries, legs,
                              progress=lambda rows: tqdm(rows, desc=name, unit="query", leave=False))
            for language in ("zh", "en", "mixed", "all"):
                s = scores.get(language)
                if s:
                    print(f"{name:<8} {language:<6} {s['n']:>4} {s['recall@1']:>6.3f} {s['recall@5']:>6.3f} "
                          f"{s['mrr']:>6.3f}")


if __name__ == "__main__":
    main()
