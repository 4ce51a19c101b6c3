"""Recall on public long-conversation data nobody here wrote (read from ../shared/eval, never copied):

* LoCoMo dev (`locomo_dev.json`, CC BY-NC 4.0): one subject per conversation, every turn an
  episode "speaker: text" at its session's date, with its session's id (as an agent writes them);
  each QA of categories 1–4 is a query, its evidence dia ids the gold turns.
* MemoryBank-SiliconFriend zh/en (`memorybank/`, MIT): one subject per person, every turn (user
  message + assistant reply) an episode on its day, the day its session; gold turns from
  tests/data/memorybank_gold.jsonl (labelled by bench/label_memorybank.py — see there for how, and its limits).

recall@k = the share of a query's gold turns among the top k, averaged over queries. The memories
are written through the services and recalled through `recall()`, as an agent would.
Used by `make eval` (bench/eval_recall.py) and by tests/memories/test_recall_public.py.
"""

import json
import math
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.test import override_settings

from apps.accounts.models import Subject, Workspace
from apps.audit.services import Actor
from apps.memories.recall import recall
from apps.memories.search import tokens
from apps.memories.services import episode_record

ROOT = Path(__file__).resolve().parent.parent
SHARED_EVAL = Path(os.environ.get("PUBLIC_EVAL_DIR", ROOT.parent / "shared" / "eval"))
MEMORYBANK_GOLD = Path(__file__).parent / "data" / "memorybank_gold.jsonl"
LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10)
LEG_SETS = {"vector": ("vector",), "keyword": ("keyword",), "hybrid": ("vector", "keyword", "recent")}
ONLY = {"vector": "similarity", "keyword": "keyword"}


@dataclass
class Corpus:
    """One subject's turns and the queries asked about them."""

    subject: str
    turns: list[tuple[str, str, datetime, str]] = field(default_factory=list)  # (turn id, text, occurred at, session)
    queries: list[dict] = field(default_factory=list)  # {"query", "gold": [turn ids], "group"}


def available() -> bool:
    return (SHARED_EVAL / "locomo_dev.json").exists() and (SHARED_EVAL / "memorybank").is_dir()


def load_locomo(path: Path | None = None) -> list[Corpus]:
    conversations = json.loads((path or SHARED_EVAL / "locomo_dev.json").read_text(encoding="utf-8"))
    corpora = []
    for conversation in conversations:
        corpus = Corpus(subject=conversation["sample_id"])
        sessions = conversation["conversation"]
        numbers = sorted(int(k.split("_")[1]) for k in sessions if re.fullmatch(r"session_\d+", k))
        for number in numbers:
            start = datetime.strptime(sessions[f"session_{number}_date_time"], "%I:%M %p on %d %B, %Y")
            start = start.replace(tzinfo=UTC)
            for i, turn in enumerate(sessions[f"session_{number}"]):
                corpus.turns.append(
                    (
                        turn["dia_id"],
                        f"{turn['speaker']}: {turn['text']}",
                        start + timedelta(seconds=30 * i),
                        f"session_{number}",
                    )
                )
        known = {turn[0] for turn in corpus.turns}
        for qa in conversation["qa"]:
            if qa.get("category") not in LOCOMO_CATEGORIES:
                continue
            gold = [e for raw in qa.get("evidence", []) for e in re.split(r"[;,\s]+", raw) if e in known]
            if gold:
                corpus.queries.append(
                    {
                        "query": qa["question"],
                        "gold": list(dict.fromkeys(gold)),
                        "group": LOCOMO_CATEGORIES[qa["category"]],
                    }
                )
        corpora.append(corpus)
    return corpora


def load_memorybank(lang: str) -> list[Corpus]:
    suffix = {"en": "en", "zh": "cn"}[lang]
    people = json.loads((SHARED_EVAL / "memorybank" / f"memory_bank_{suffix}.json").read_text(encoding="utf-8"))
    speaker = "AI" if lang == "en" else "AI伴侣"
    corpora = {}
    for name, person in people.items():
        name = name.strip()
        corpus = corpora[name] = Corpus(subject=f"mb-{lang}-{name}")
        for day in sorted(person["history"]):
            start = datetime.strptime(day, "%Y-%m-%d").replace(hour=12, tzinfo=UTC)
            for i, turn in enumerate(person["history"][day]):
                text = f"{name}: {turn.get('query', '')}\n{speaker}: {turn.get('response', '')}"
                corpus.turns.append((f"{day}#{i}", text, start + timedelta(minutes=i), day))
    for line in MEMORYBANK_GOLD.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["lang"] == lang:
            corpora[row["person"]].queries.append({"query": row["text"].strip('"'), "gold": row["gold"], "group": lang})
    return list(corpora.values())


def build(corpora: list[Corpus], slug: str, progress=lambda items: items) -> tuple[Workspace, dict, dict]:
    """Write every turn as an episode (one transaction per subject, so the vectors are computed in
    batches); returns the workspace, subject by name, and (subject, turn id) → memory id."""
    workspace = Workspace.objects.create(name=f"Public eval {slug}", slug=slug)
    subjects, ids = {}, {}
    for corpus in progress(corpora):
        subject = subjects[corpus.subject] = Subject.objects.create(workspace=workspace, external_id=corpus.subject)
        with transaction.atomic():
            for turn_id, text, occurred_at, session_id in corpus.turns:
                memory = episode_record(
                    subject=subject, text=text, occurred_at=occurred_at, session_id=session_id, actor=Actor.system()
                ).memory
                ids[(corpus.subject, turn_id)] = str(memory.id)
    return workspace, subjects, ids


class Scores:
    """Mean recall@k per group and overall."""

    def __init__(self) -> None:
        self.sums: dict[str, Counter] = defaultdict(Counter)

    def add(self, group: str, ranked: list[str], gold: list[str]) -> None:
        for name in (group, "all"):
            self.sums[name]["n"] += 1
            for k in KS:
                self.sums[name][f"R@{k}"] += len(set(ranked[:k]) & set(gold)) / len(gold)

    def as_dict(self) -> dict:
        return {
            name: {"n": s["n"], **{f"R@{k}": round(s[f"R@{k}"] / s["n"], 4) for k in KS}}
            for name, s in self.sums.items()
        }


def evaluate(
    workspace,
    subjects,
    ids,
    corpora: list[Corpus],
    legs: tuple[str, ...],
    progress=lambda items: items,
    **settings_overrides,
) -> dict:
    back = {memory_id: turn_id for (_, turn_id), memory_id in ids.items()}
    weights = settings_overrides.pop("RECALL_WEIGHTS", settings.RECALL_WEIGHTS)
    if len(legs) == 1:
        weights = {name: float(name == ONLY[legs[0]]) for name in weights}
    scores = Scores()
    with override_settings(RECALL_WEIGHTS=weights, **settings_overrides):
        for corpus in corpora:
            for query in progress(corpus.queries):
                result = recall(
                    workspace=workspace,
                    subject=subjects[corpus.subject],
                    query=query["query"],
                    top_k=max(KS),
                    token_budget=1_000_000,
                    legs=legs,
                )
                ranked = [back.get(str(c.memory.id), "?") for c in result.memories]
                scores.add(query["group"], ranked, query["gold"])
    return scores.as_dict()


# The in-run baseline: plain Okapi BM25 (k1 1.5, b 0.75) over the same turns, per subject, with
# the same jieba tokens as the keyword leg and English stop words removed; no stemming.
EN_STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for with about from as is are was were be been being do does did "
    "have has had i me my you your he him his she her it its we our they them their this that these those what "
    "which who whom whose when where why how not no so than too very can will would should could".split()
)


def bm25_baseline(corpora: list[Corpus], k1: float = 1.5, b: float = 0.75) -> dict:
    scores = Scores()
    for corpus in corpora:
        docs = [[t for t in tokens(turn[1]) if t not in EN_STOPWORDS] for turn in corpus.turns]
        df = Counter(t for doc in docs for t in set(doc))
        n, avgdl = len(docs), sum(map(len, docs)) / max(len(docs), 1)
        idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        frequencies = [Counter(doc) for doc in docs]
        for query in corpus.queries:
            terms = [t for t in dict.fromkeys(tokens(query["query"])) if t not in EN_STOPWORDS]
            ranked = []
            for i, (tf, doc) in enumerate(zip(frequencies, docs, strict=True)):
                s = sum(
                    idf[t] * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(doc) / avgdl)) for t in terms if t in tf
                )
                if s > 0:
                    ranked.append((-s, i))
            ranked.sort()
            scores.add(query["group"], [corpus.turns[i][0] for _, i in ranked[: max(KS)]], query["gold"])
    return scores.as_dict()
