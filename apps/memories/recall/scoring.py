"""The recall score and the diversity pass, as pure functions (tested against the formula)."""

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from apps.memories.models import Memory


@dataclass(eq=False)  # a candidate is itself (identity): `in` and `remove` on picks compare no fields
class Candidate:
    memory: Memory
    similarity: float = 0.0  # calibrated 0..1 (0 = no more similar than unrelated text)
    keyword: float = 0.0  # full-text rank, 0..1
    fused: float | None = None  # reciprocal-rank fusion of the vector and keyword legs, 0..1 (RECALL_FUSION=rrf)
    neighbour: float = 0.0  # relevance of the best adjacent turn of the same session (see engine._neighbours)
    recency: float = 0.0
    relevant: bool = False  # passed the relevance floor (similar, keyword hit, or asked-for recent)
    needed: bool = False  # a constraint or pinned fact the query's need calls for (engine._concerns)
    vector: np.ndarray | None = None
    score: float = 0.0
    components: dict = field(default_factory=dict)


def recency(memory: Memory, *, now: datetime, half_lives: dict[str, float | None]) -> float:
    """0.5 ** (age_days / half_life[category]); constraints and pinned memories never decay."""
    half_life = half_lives.get(memory.category)
    if memory.pinned or half_life is None:
        return 1.0
    moment = memory.occurred_at if memory.kind == Memory.Kind.EPISODE and memory.occurred_at else memory.updated_at
    age_days = max(0.0, (now - moment).total_seconds() / 86400)
    return float(0.5 ** (age_days / half_life))


def relevance(candidate: Candidate, weights: dict[str, float]) -> float:
    """How well the memory itself matches the query: w_sim·similarity + w_kw·keyword, or with
    reciprocal-rank fusion (w_sim + w_kw)·fused."""
    if candidate.fused is None:
        return weights["similarity"] * candidate.similarity + weights["keyword"] * candidate.keyword
    return (weights["similarity"] + weights["keyword"]) * candidate.fused


def score(candidate: Candidate, weights: dict[str, float], neighbour_weight: float = 0.0) -> float:
    """relevance + w_nb·neighbour + w_rec·recency + w_imp·importance + pinned boost, where
    `neighbour` is the relevance of the adjacent turn of the same session that matches best."""
    memory = candidate.memory
    own = relevance(candidate, weights)
    lift = neighbour_weight * candidate.neighbour
    candidate.components = {
        "similarity": round(candidate.similarity, 4),
        "keyword": round(candidate.keyword, 4),
        "relevance": round(own, 4),
        "neighbour": round(lift, 4),
        "recency": round(candidate.recency, 4),
        "importance": memory.importance,
        "pinned": memory.pinned,
    }
    if candidate.fused is not None:
        candidate.components["fused"] = round(candidate.fused, 4)
    candidate.score = (
        own
        + lift
        + weights["recency"] * candidate.recency
        + weights["importance"] * memory.importance
        + (weights["pinned"] if memory.pinned else 0.0)
    )
    return candidate.score


def ranking(candidate: Candidate) -> tuple[float, str]:
    """Sort key: higher score first; equal scores by memory id, so that a recall never depends on
    the order rows come back in (which an UPDATE of the access counters changes)."""
    return -candidate.score, str(candidate.memory.id)


def mmr(candidates: list[Candidate], *, k: int, lam: float, floor: float = 0.0) -> list[Candidate]:
    """Maximal marginal relevance: each pick trades score against similarity to what is picked,
    so near-duplicates don't fill the list. Similarity is calibrated like the query's, by the
    model's floor — (cos − floor) / (1 − floor) — so that e5, whose unrelated texts sit at ~0.8,
    does not treat everything as a near-duplicate. Candidates without a vector are never 'similar'.
    Ties go to the earlier candidate in `ranking` order (np.argmax returns the first maximum)."""
    ordered = sorted(candidates, key=ranking)
    if not ordered:
        return []
    has_vector = np.array([c.vector is not None for c in ordered])
    similarity = np.full((len(ordered), len(ordered)), -np.inf)
    if has_vector.any():
        stacked = np.stack([c.vector for c in ordered if c.vector is not None])
        rows = np.flatnonzero(has_vector)
        similarity[np.ix_(rows, rows)] = (stacked @ stacked.T - floor) / (1 - floor)
    scores = np.array([c.score for c in ordered])
    redundancy = np.full(len(ordered), -np.inf)  # the highest similarity to a pick so far
    available = np.ones(len(ordered), dtype=bool)
    picked: list[Candidate] = []
    while available.any() and len(picked) < k:
        marginal = lam * scores - (1 - lam) * np.where(np.isinf(redundancy), 0.0, redundancy)
        best = int(np.argmax(np.where(available, marginal, -np.inf)))
        picked.append(ordered[best])
        available[best] = False
        redundancy = np.maximum(redundancy, similarity[best])
    return picked
