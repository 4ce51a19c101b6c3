"""Recall: the subject's memories that matter for a query, ranked, diverse and within a token budget.

hard filters (SQL) → legs: vector (pgvector), keyword (full-text, jieba-segmented), recent
→ merge → score → relevance floor and min_score → MMR → constraints kept → pack into the budget.
If the embedder or the vector leg fails, the answer comes from the other legs (fallback "keyword").
"""

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Q, QuerySet
from django.utils import timezone

from apps.accounts.models import Subject, Workspace
from apps.memories.embeddings import Embedder, EmbeddingError, calibration, get_embedder, store
from apps.memories.models import Memory
from apps.memories.recall import block, intent, reads
from apps.memories.recall.scoring import Candidate, mmr, ranking, recency, relevance, score
from apps.memories.search import query_terms
from apps.memories.selectors import narrow
from memoryadmin import metrics
from memoryadmin.tracing import annotate, in_thread, span, traced

logger = logging.getLogger(__name__)
_embedding_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall-embed")
LEGS = ("vector", "keyword", "recent")


@dataclass
class RecallResult:
    memories: list[Candidate] = field(default_factory=list)
    memory_block: str = ""
    used_tokens: int = 0
    fallback: str | None = None
    skipped: str | None = None  # why nothing was looked up (mode="auto" small talk)
    took_ms: float = 0.0
    trace: dict = field(default_factory=dict)


def recall_queryset(
    *,
    workspace: Workspace,
    subject: Subject,
    kinds: Sequence[str] | None = None,
    categories: Sequence[str] | None = None,
    session_id: str | None = None,
    now: datetime,
) -> QuerySet[Memory]:
    """The hard filters every leg shares: this subject's active, unexpired memories."""
    memories = Memory.objects.filter(workspace=workspace, subject=subject, status=Memory.Status.ACTIVE).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    )
    return narrow(memories, kinds=kinds, categories=categories, session_id=session_id)


# After a failure or time-out, recall skips that embedder for a few seconds instead of queueing
# more calls on it (a timed-out call keeps its thread until the embedder's own time-out).
embedder_paused_until: dict[str, float] = {}
EMBEDDER_PAUSE_SECONDS = 5.0


class QueryVectors:
    """The vectors of the latest queries, per process (least recently used out first), keyed by the
    embedder's model id and the exact query text: agents ask the same things again, and an e5 query
    embedding costs ~15 ms of CPU. The same text gives the same vector, so answers do not change.
    RECALL_QUERY_CACHE queries (0: off); the vectors are read-only."""

    def __init__(self) -> None:
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> np.ndarray | None:
        with self._lock:
            vector = self._vectors.get(key)
            if vector is not None:
                self._vectors.move_to_end(key)
            return vector

    def put(self, key: tuple[str, str], vector: np.ndarray) -> None:
        size = settings.RECALL_QUERY_CACHE
        if size <= 0:
            return
        vector.flags.writeable = False
        with self._lock:
            self._vectors[key] = vector
            self._vectors.move_to_end(key)
            while len(self._vectors) > size:
                self._vectors.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._vectors.clear()


query_vectors = QueryVectors()


class EmbedderBusy(EmbeddingError):
    """This process's query embeddings would keep the recall waiting longer than its budget."""


class EmbedAdmission:
    """Degrade under overload instead of queueing: a query embedding starts only when the ones in
    flight in this process would finish within RECALL_EMBED_QUEUE_BUDGET seconds (each taking the
    recent average wall time). Otherwise the recall answers from the keyword and recent legs
    (fallback "keyword") without spending the CPU: on a saturated machine every embedding slows
    every other request down, so a queue of them only grows."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.in_flight = 0
        self.seconds = 0.0  # moving average of an embedding's wall time

    def enter(self) -> None:
        with self._lock:
            if self.in_flight and self.in_flight * self.seconds > settings.RECALL_EMBED_QUEUE_BUDGET:
                raise EmbedderBusy(f"{self.in_flight} query embeddings in flight here")
            self.in_flight += 1

    def leave(self, seconds: float) -> None:
        with self._lock:
            self.in_flight -= 1
            self.seconds = seconds if not self.seconds else 0.8 * self.seconds + 0.2 * seconds


admission = EmbedAdmission()


@dataclass(eq=False)
class _Query:
    embedder: Embedder
    text: str
    done: bool = False
    vector: np.ndarray | None = None
    error: Exception | None = None


class QueryBatcher:
    """The concurrent recalls of a process embed their queries together: each query joins a queue,
    and whichever of their threads gets the (one) embedding turn next embeds every query waiting
    for that embedder as one batch. Nothing waits on purpose, so a lone query goes at once; under
    load the queries that arrived during a batch make the next one. On 2 cores a batch of 2-4 cost
    ~12 % less CPU per e5 query and 15-35 % less per USE query than single calls, with the same
    vectors (e5 bit-identical, USE within 2e-7): README, Benchmarks, make load."""

    MAX = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()  # guards _waiting
        self._turn = threading.Lock()  # one batch at a time: the models would serialize them anyway
        self._waiting: list[_Query] = []

    def embed(self, embedder: Embedder, text: str) -> np.ndarray:
        query = _Query(embedder, text)
        with self._lock:
            self._waiting.append(query)
        with self._turn:
            if not query.done:  # not embedded by another thread's batch meanwhile: embed a batch now
                with self._lock:
                    others = [q for q in self._waiting if q.embedder is embedder and q is not query]
                    batch = [query, *others[: self.MAX - 1]]
                    self._waiting = [q for q in self._waiting if q not in batch]
                self._run(embedder, batch)
        if query.error is not None:
            raise query.error
        assert query.vector is not None
        return query.vector

    @staticmethod
    def _run(embedder: Embedder, batch: list[_Query]) -> None:
        try:  # one query alone goes through embed_query, as before batching
            texts = [q.text for q in batch]
            vectors = [embedder.embed_query(texts[0])] if len(batch) == 1 else list(embedder.embed_queries(texts))
            for q, vector in zip(batch, vectors, strict=True):
                q.vector = vector
        except Exception as error:  # each waiting recall gets it (EmbeddingError: falls back)
            for q in batch:
                q.error = error
        finally:
            for q in batch:
                q.done = True


batcher = QueryBatcher()


def _embed_query(text: str, model: str) -> Callable[[], np.ndarray]:
    """Start embedding `text` in the pool (unless its vector is cached); returns the function that
    waits for the vector, so that recall runs its keyword and recent legs meanwhile. Both raise
    EmbeddingError."""
    if time.monotonic() < embedder_paused_until.get(model, 0.0):
        raise EmbeddingError("the embedder failed a moment ago; answering from keywords")
    embedder = get_embedder(model)
    key = (embedder.model_id, text)
    if (cached := query_vectors.get(key)) is not None:
        return lambda: cached
    admission.enter()  # raises EmbedderBusy
    submitted = time.monotonic()

    def embed() -> np.ndarray:
        try:
            vector = batcher.embed(embedder, text)
        finally:
            admission.leave(time.monotonic() - submitted)
        query_vectors.put(key, vector)  # also when recall stopped waiting: the next ask finds it
        return vector

    try:
        future = _embedding_pool.submit(in_thread("embedding.query", embed, model=model))
    except RuntimeError:  # the pool is shut down (interpreter exit)
        admission.leave(0.0)
        raise

    # A call cancelled before it ran (the recall timed out) never reaches embed()'s `finally`.
    def left_if_cancelled(done: Future) -> None:
        if done.cancelled():
            admission.leave(time.monotonic() - submitted)

    future.add_done_callback(left_if_cancelled)

    def vector() -> np.ndarray:
        try:
            vector: np.ndarray = future.result(timeout=settings.RECALL_EMBED_TIMEOUT)
            return vector
        except (FutureTimeout, EmbeddingError) as error:
            future.cancel()
            embedder_paused_until[model] = time.monotonic() + EMBEDDER_PAUSE_SECONDS
            if isinstance(error, EmbeddingError):
                raise
            raise EmbeddingError(f"embedding the query took longer than {settings.RECALL_EMBED_TIMEOUT}s") from None

    return vector


def _reciprocal_ranks(*legs: dict, k: int) -> dict:
    """Reciprocal-rank fusion of legs (id → score, higher better), scaled so 1.0 = first in every leg."""
    fused: dict = {}
    for leg in legs:
        for rank, (memory_id, _) in enumerate(sorted(leg.items(), key=lambda row: (-row[1], str(row[0]))), start=1):
            fused[memory_id] = fused.get(memory_id, 0.0) + 1 / (k + rank)
    best = len([leg for leg in legs if leg]) / (k + 1) or 1.0
    return {memory_id: value / best for memory_id, value in fused.items()}


@traced("recall")
def recall(
    *,
    workspace: Workspace,
    subject: Subject,
    query: str,
    top_k: int = 8,
    token_budget: int = 800,
    kinds: list[str] | None = None,
    categories: list[str] | None = None,
    session_id: str | None = None,
    min_score: float | None = None,
    mode: str = "always",
    legs: tuple[str, ...] = LEGS,
    include_trace: bool = False,
    now: datetime | None = None,
) -> RecallResult:
    started = time.perf_counter()
    now = now or timezone.now()
    result = RecallResult()
    if mode == "auto" and intent.needs_no_memory(query):
        result.skipped = "small_talk"
        metrics.RECALLS.labels("none", "unknown", "skipped").inc()
        result.took_ms = round((time.perf_counter() - started) * 1000, 2)
        return result

    base = recall_queryset(
        workspace=workspace, subject=subject, kinds=kinds, categories=categories, session_id=session_id, now=now
    )
    compiled = reads.Base.of(base)
    pool, laps = settings.RECALL_CANDIDATES, metrics.Laps()
    query_vector, similarities = None, {}
    try:  # on a fresh database, active_index() asks the embedder for its dimension
        index = store.active_index()
        pending_vector = _embed_query(query, index.name) if "vector" in legs else None
    except EmbeddingError as error:
        index = None
        # Busy is the overload rule at work (counted by the fallback field), not a fault to log each time.
        (logger.debug if isinstance(error, EmbedderBusy) else logger.warning)(
            "Recall falls back to keyword + recency: %s", error
        )
        result.fallback, pending_vector = "keyword", None
    topics, asked_keys = intent.need_topics(query), intent.profile_keys_asked(query)
    with span("recall.keyword"):  # with the recent leg and the facts asked for, in one statement
        found = reads.legs(
            compiled,
            terms=query_terms(query) if "keyword" in legs else [],
            keyword_limit=settings.RECALL_KEYWORD_CANDIDATES,
            recent=5 if "recent" in legs else 0,
            asked_keys=asked_keys,
            needs=bool(topics),
        )
    keyword_ranks, recent_ids, profile_ids = found.keyword, found.recent, found.profile
    laps.lap("keyword")
    if pending_vector is not None:
        assert index is not None  # a query is embedded only for an active index
        with span("recall.vector"):
            try:
                query_vector = pending_vector()
                laps.lap("embed")
                similarities = dict(
                    store.nearest(
                        index=index,
                        memories=base,
                        subject=subject,
                        query_vector=query_vector,
                        limit=pool,
                        filtered=compiled.ids(),
                    )
                )
                laps.lap("vector")
            except (EmbeddingError, DatabaseError) as error:
                logger.warning("Recall falls back to keyword + recency: %s", error)
                result.fallback, query_vector, similarities = "keyword", None, {}
    ids = set(similarities) | set(keyword_ranks) | set(recent_ids) | profile_ids
    fetched = reads.candidates(
        compiled, ids, model_id=index.model_id if query_vector is not None and index is not None else None
    )
    memories = fetched.memories
    stored_vectors = {memory_id: store.vector_from_db(raw) for memory_id, raw in fetched.vectors.items()}

    model_id = index.model_id if index else ""
    floor = calibration(model_id)["floor"] if index else 0.0
    asks_recent = intent.asks_about_recent(query)
    weights = settings.RECALL_WEIGHTS
    if asks_recent:  # "last time…", "上次…": the newest relevant memory is the answer
        weights = {**weights, "recency": settings.RECALL_RECENCY_WEIGHT_WHEN_ASKED}
    top_rank = max(keyword_ranks.values(), default=0.0) or 1.0
    fused = None
    if settings.RECALL_FUSION == "rrf":
        fused = _reciprocal_ranks(similarities, keyword_ranks, k=settings.RECALL_RRF_K)
    by_id: dict[uuid.UUID, Candidate] = {}
    for memory_id, memory in memories.items():
        candidate = Candidate(memory=memory, vector=stored_vectors.get(memory_id))
        if query_vector is not None and candidate.vector is not None:
            cosine = float(candidate.vector @ query_vector)
            candidate.similarity = max(0.0, (cosine - floor) / (1 - floor))
        candidate.keyword = keyword_ranks.get(memory_id, 0.0) / top_rank
        if memory.kind == Memory.Kind.PROFILE and memory.key in asked_keys:
            candidate.keyword = 1.0  # "我住在哪里" → city: the key answers it, as a full keyword hit would
        if fused is not None:
            candidate.fused = fused.get(memory_id, 0.0)
        candidate.recency = recency(memory, now=now, half_lives=settings.RECALL_HALF_LIFE_DAYS)
        by_id[memory_id] = candidate
    neighbour_weight = settings.RECALL_NEIGHBOUR_WEIGHT
    if neighbour_weight > 0:
        for earlier, later in _adjacent_turns(memories, fetched.previous):
            first, second = by_id[earlier], by_id[later]
            first.neighbour = max(first.neighbour, relevance(second, weights))
            second.neighbour = max(second.neighbour, relevance(first, weights))
    if topics:
        for memory_id in profile_ids:
            by_id[memory_id].needed = _concerns(by_id[memory_id], topics, index.name if index else "")
    for memory_id, candidate in by_id.items():
        candidate.relevant = (
            candidate.similarity > 0
            or candidate.keyword > 0
            or candidate.neighbour * neighbour_weight > 0
            or candidate.needed
            or (memory_id in recent_ids and (asks_recent or result.fallback is not None))
        )
        score(candidate, weights, neighbour_weight)
    candidates = list(by_id.values())

    with span("recall.rank"):
        eligible = [c for c in candidates if c.relevant and (min_score is None or c.score >= min_score)]
        picked = mmr(eligible, k=top_k, lam=settings.RECALL_MMR_LAMBDA, floor=floor)
        picked = _keep_constraints(picked, eligible, top_k)
    with span("recall.block"):
        kept, result.memory_block, result.used_tokens = block.pack(
            [c.memory for c in picked], budget=token_budget, timezone_name=subject.timezone
        )
    kept_ids = {m.id for m in kept}
    result.memories = [c for c in picked if c.memory.id in kept_ids]
    if include_trace:
        result.trace = {
            "model": model_id,
            "similarity_floor": floor,
            "asks_recent": asks_recent,
            "legs": {"vector": len(similarities), "keyword": len(keyword_ranks), "recent": len(recent_ids)},
            "candidates": len(candidates),
            "eligible": len(eligible),
            "picked": len(picked),
            "dropped_for_budget": len(picked) - len(result.memories),
        }
    laps.lap("rank")
    annotate(
        workspace=workspace.slug,
        model=model_id,
        fallback=result.fallback,
        vector_hits=len(similarities),
        keyword_hits=len(keyword_ranks),
        recent_hits=len(recent_ids),
        candidates=len(candidates),
        kept=len(result.memories),
    )
    result.took_ms = round((time.perf_counter() - started) * 1000, 2)
    # "stored": the hard filters matched a memory (the recent leg takes any five), so a hit was due
    metrics.recall_done(
        seconds=laps.last - started, fallback=result.fallback, stored=bool(ids), hit=bool(result.memories)
    )
    return result


def _apart(earlier: datetime | None, later: datetime | None) -> timedelta:
    """How far apart two turns were (the turns asked for here all have a time)."""
    assert earlier is not None and later is not None
    return later - earlier


def _adjacent_turns(memories: dict, previous: dict) -> list[tuple]:
    """(earlier id, later id) for candidate episodes that are consecutive turns of one session:
    no other active episode of that session lies between them (ordered by occurred_at, then id;
    `previous` from reads.candidates). Episodes without a session id are one conversation when at
    most RECALL_NEIGHBOUR_GAP_MINUTES apart. Forgotten or superseded turns do not pass the hard
    filters, so they neither count nor separate."""
    turns = {i: m for i, m in memories.items() if m.kind == Memory.Kind.EPISODE and m.occurred_at}
    gap = timedelta(minutes=settings.RECALL_NEIGHBOUR_GAP_MINUTES)
    return [
        (earlier, later)
        for later, earlier in previous.items()
        if earlier in turns
        and later in turns
        and (turns[later].session_id or _apart(turns[earlier].occurred_at, turns[later].occurred_at) <= gap)
    ]


_topic_vectors: dict[str, dict[str, np.ndarray]] = {}


def _concerns(candidate: Candidate, topics: set[str], model: str) -> bool:
    """Whether a constraint or pinned fact is about one of the need's topics: its words say so
    (intent.CONCERNS), or else its vector is nearest to that topic's description."""
    memory = candidate.memory
    if found := intent.concerns(f"{memory.key} {memory.content}"):
        return bool(found & topics)
    if candidate.vector is None:
        return False
    if model not in _topic_vectors:
        try:
            embedder = get_embedder(model)
            _topic_vectors[model] = {t: embedder.embed_query(d) for t, d in intent.TOPIC_DESCRIPTIONS.items()}
        except EmbeddingError:
            return False
    nearest = max(_topic_vectors[model].items(), key=lambda item: float(candidate.vector @ item[1]))[0]
    return nearest in topics


def _must_stay(candidate: Candidate) -> bool:
    return candidate.needed or candidate.memory.category == Memory.Category.CONSTRAINT


def _keep_constraints(picked: list[Candidate], eligible: list[Candidate], top_k: int) -> list[Candidate]:
    """Constraints that share a word with the query, and the constraints and pinned facts a need
    question calls for, are never crowded out: each one left out replaces the lowest-scored other
    pick. (Similarity alone is not enough: e5 puts unrelated text just above its floor.)"""
    missing = [
        c
        for c in sorted(eligible, key=ranking)
        if c not in picked and (c.needed or (c.memory.category == Memory.Category.CONSTRAINT and c.keyword > 0))
    ]
    for constraint in missing:
        replaceable = [c for c in picked if not _must_stay(c)]
        if len(picked) < top_k:
            picked.append(constraint)
        elif replaceable:
            picked.remove(max(replaceable, key=ranking))
            picked.append(constraint)
    return sorted(picked, key=ranking)
