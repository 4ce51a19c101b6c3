"""The recall evaluation set (tests/data/recall_eval.jsonl): load it into a database through the
services, run every query, and score the answers. Used by `make eval` and by a test."""

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.test import override_settings

from apps.accounts.models import Subject, Workspace
from apps.memories.recall import recall
from tests.factories import episode, fact

EVAL_FILE = Path(__file__).parent / "data" / "recall_eval.jsonl"
LEG_SETS = {"vector": ("vector",), "keyword": ("keyword",), "hybrid": ("vector", "keyword", "recent")}
# A single leg is judged on its own signal; hybrid uses the configured weights.
ONLY = {"vector": "similarity", "keyword": "keyword"}


@dataclass
class Score:
    queries: int = 0
    hits_at_1: int = 0
    hits_at_5: int = 0
    reciprocal_ranks: float = 0.0

    def add(self, ranked: list[str], expected: list[str]) -> None:
        self.queries += 1
        positions = [ranked.index(e) + 1 for e in expected if e in ranked]
        first = min(positions, default=None)
        self.hits_at_1 += first == 1
        self.hits_at_5 += first is not None and first <= 5
        self.reciprocal_ranks += 1 / first if first else 0.0

    def as_dict(self) -> dict:
        n = max(self.queries, 1)
        return {
            "n": self.queries,
            "recall@1": self.hits_at_1 / n,
            "recall@5": self.hits_at_5 / n,
            "mrr": self.reciprocal_ranks / n,
        }


def load(path: Path = EVAL_FILE) -> tuple[list[dict], list[dict]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r["type"] == "memory"], [r for r in rows if r["type"] == "query"]


def build(memories: list[dict], progress=lambda items: items) -> tuple[Workspace, dict, dict]:
    """Write the memories through the services; returns the workspace, subjects and eval id → memory id."""
    workspace = Workspace.objects.create(name="Recall eval", slug="recall-eval")
    subjects, ids = {}, {}
    for row in progress(memories):
        if row["subject"] not in subjects:
            subjects[row["subject"]] = Subject.objects.create(workspace=workspace, external_id=row["subject"])
        subject = subjects[row["subject"]]
        options = {"importance": row.get("importance", 0.5), "days": row.get("days_ago", 0)}
        if row["kind"] == "profile":
            memory = fact(
                subject, row["key"], row["value"], category=row["category"], pinned=row.get("pinned", False), **options
            )
        else:
            memory = episode(subject, row["text"], session_id=row.get("session_id", ""), **options)
        ids[row["id"]] = str(memory.id)
    return workspace, subjects, ids


def evaluate(workspace, subjects, ids, queries, legs: tuple[str, ...], progress=lambda items: items) -> dict:
    """recall@1, recall@5 and MRR per language (and "all") for one set of legs."""
    back = {memory_id: eval_id for eval_id, memory_id in ids.items()}
    scores: dict[str, Score] = defaultdict(Score)
    weights = settings.RECALL_WEIGHTS
    if len(legs) == 1:
        weights = {name: float(name == ONLY[legs[0]]) for name in weights}
    with override_settings(RECALL_WEIGHTS=weights):
        for query in progress(queries):
            result = recall(
                workspace=workspace,
                subject=subjects[query["subject"]],
                query=query["query"],
                top_k=5,
                token_budget=4000,
                legs=legs,
            )
            ranked = [back.get(str(c.memory.id), "?") for c in result.memories]
            for language in (query["lang"], "all"):
                scores[language].add(ranked, query["expected"])
    return {language: score.as_dict() for language, score in scores.items()}
