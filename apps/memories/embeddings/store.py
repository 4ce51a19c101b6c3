"""The vector store: one vector per active memory per embedding model (MemoryEmbedding rows).

Writes: `memory_embed` (called by the embed task after a write commits), `embed_missing` (the
sweep that catches up after failures), `index_ensure` / `index_activate` (model switches).
Read: `nearest` (the vector leg of recall), `vector_from_db` (a stored vector read in pgvector's
binary form: recall.reads fetches the candidates' with `vector_send`, for MMR).

The active EmbeddingIndex says which model recall uses. While `reembed --model X` builds X, new
writes are embedded for both, and recall keeps reading the old vectors until X is complete.
"""

import functools
import hashlib
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.db.models.functions import Cast
from django.utils import timezone
from pgvector.django import CosineDistance, VectorField

from apps.accounts.models import Subject
from apps.memories.embeddings import EmbeddingError, default_model, get_embedder
from apps.memories.models import EmbeddingIndex, Memory, MemoryEmbedding
from memoryadmin.db import columns, fetch_row, instance
from memoryadmin.tracing import span

logger = logging.getLogger(__name__)


def hnsw_index_name(model_id: str) -> str:
    return "embedding_hnsw_" + hashlib.sha1(model_id.encode()).hexdigest()[:12]


def hnsw_index_create(index: EmbeddingIndex) -> None:
    """A partial HNSW index for one model, on the vector cast to that model's dimension."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE INDEX IF NOT EXISTS {hnsw_index_name(index.model_id)} ON memories_memoryembedding "
            f"USING hnsw ((embedding::vector({int(index.dimension)})) vector_cosine_ops) "
            f"WHERE model_id = %s",
            [index.model_id],
        )


def index_ensure(*, name: str, state: str = EmbeddingIndex.State.BUILDING) -> EmbeddingIndex:
    """The EmbeddingIndex for model `name`, created (with its HNSW index) if new."""
    embedder = get_embedder(name)
    index = EmbeddingIndex.objects.filter(model_id=embedder.model_id).first()
    if index is None:
        index, _ = EmbeddingIndex.objects.get_or_create(
            model_id=embedder.model_id, defaults={"name": name, "dimension": embedder.dimension, "state": state}
        )
        hnsw_index_create(index)
    return index


def active_index() -> EmbeddingIndex:
    """The index recall reads; on a fresh database, the default model's, created active."""
    index = _active_index_row()
    if index is None:
        with transaction.atomic():
            index = index_ensure(name=default_model(), state=EmbeddingIndex.State.ACTIVE)
            if index.state != EmbeddingIndex.State.ACTIVE:
                index_activate(index=index)
    return index


@functools.cache
def _active_index_sql() -> str:
    return f"SELECT {columns(EmbeddingIndex, 'i')} FROM {EmbeddingIndex._meta.db_table} i WHERE i.state = %s"


def _active_index_row() -> EmbeddingIndex | None:
    """The active index (at most one: a unique constraint), read by every recall, so a hand-written
    statement: the ORM's building and compiling of it cost ~0.3 ms of CPU. Not cached: a switch of
    model must reach every worker at once."""
    row = fetch_row(_active_index_sql(), [EmbeddingIndex.State.ACTIVE])
    return None if row is None else instance(EmbeddingIndex, row)


def _indexes_to_fill() -> list[EmbeddingIndex]:
    indexes = list(EmbeddingIndex.objects.exclude(state=EmbeddingIndex.State.RETIRED))
    if any(index.state == EmbeddingIndex.State.ACTIVE for index in indexes):
        return indexes
    return [active_index()] + indexes  # a fresh database


def _embed_into(index: EmbeddingIndex, memories: list[Memory]) -> int:
    if not memories:
        return 0
    with span("embedding.passages", model=index.name, count=len(memories)):
        vectors = get_embedder(index.name).embed_passages([m.text for m in memories])
    with transaction.atomic():
        # A memory superseded or forgotten while its vector was computed (a write in another
        # process) must not get one: lock the rows still active, so such a write waits for this
        # insert and then drops the vector itself, and insert only theirs.
        live = set(
            Memory.objects.select_for_update(no_key=True)
            .filter(pk__in=[m.pk for m in memories], status=Memory.Status.ACTIVE)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        MemoryEmbedding.objects.bulk_create(
            [
                MemoryEmbedding(
                    memory_id=m.id,
                    workspace_id=m.workspace_id,
                    subject_id=m.subject_id,
                    model_id=index.model_id,
                    embedding=vector,
                )
                for m, vector in zip(memories, vectors, strict=True)
                if m.pk in live
            ],
            ignore_conflicts=True,
        )
    return len(live)


def memory_embed(*, memory_ids: Sequence[str | uuid.UUID]) -> int:
    """Embed the given memories (those still active and not yet embedded) for every live index.

    An embedder failure is logged, not raised: `embed_missing` picks the memories up later, and a
    memory without a vector is still found by the keyword leg of recall.
    """
    written = 0
    for index in _indexes_to_fill():
        memories = list(
            Memory.objects.filter(pk__in=memory_ids, status=Memory.Status.ACTIVE)
            .exclude(embeddings__model_id=index.model_id)
            .only("id", "workspace_id", "subject_id", "text")
        )
        try:
            written += _embed_into(index, memories)
        except EmbeddingError as error:
            logger.warning("Embedding %d memories with %s failed: %s", len(memories), index.model_id, error)
    return written


def missing_ids(index: EmbeddingIndex, limit: int) -> list[uuid.UUID]:
    return list(
        Memory.objects.filter(status=Memory.Status.ACTIVE)
        .exclude(embeddings__model_id=index.model_id)
        .order_by("created_at")
        .values_list("id", flat=True)[:limit]
    )


def embed_missing(*, limit: int = 500) -> int:
    """The sweep: embed active memories that have no vector yet in some live index."""
    ids = {memory_id for index in _indexes_to_fill() for memory_id in missing_ids(index, limit)}
    return memory_embed(memory_ids=list(ids)) if ids else 0


@transaction.atomic
def index_activate(*, index: EmbeddingIndex) -> EmbeddingIndex:
    """Switch recall to `index`; the previously active one retires and its vectors are dropped."""
    retired = list(EmbeddingIndex.objects.select_for_update().filter(state=EmbeddingIndex.State.ACTIVE))
    EmbeddingIndex.objects.filter(pk__in=[r.pk for r in retired]).update(state=EmbeddingIndex.State.RETIRED)
    MemoryEmbedding.objects.filter(model_id__in=[r.model_id for r in retired]).delete()
    index.state = EmbeddingIndex.State.ACTIVE
    index.activated_at = timezone.now()
    index.save(update_fields=["state", "activated_at"])
    return index


def vectors_drop(*, memory_ids) -> None:
    """A memory that stops being active loses its vectors (they only serve recall)."""
    MemoryEmbedding.objects.filter(memory_id__in=memory_ids).delete()


def vector_from_db(raw: bytes) -> np.ndarray:
    """A vector in pgvector's binary form (`vector_send`: dimension, unused, big-endian float32s) as
    float32, as `Vector.from_binary(raw).to_numpy()` reads it, in half the time (recall reads ~40)."""
    return np.frombuffer(raw, dtype=">f4", offset=4).astype(np.float32)


@functools.cache
def _literal_format(dimension: int) -> str:
    return "[" + ",".join(["%.9g"] * dimension) + "]"


def vector_literal(vector: np.ndarray) -> str:
    """A float32 vector as pgvector's text input, each value to 9 significant digits: enough for
    PostgreSQL to read back exactly the same float32 (FLT_DECIMAL_DIG), and ~half the CPU of
    `Vector.to_text()`'s shortest double repr of each of an e5 pair's 896 values (~1 ms a recall)."""
    values = vector.astype(np.float32, copy=False).tolist()
    return _literal_format(len(values)) % tuple(values)


def nearest(
    *,
    index: EmbeddingIndex,
    memories: QuerySet[Memory],
    subject: Subject,
    query_vector: np.ndarray,
    limit: int,
    filtered: tuple[str, list] | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """(memory id, cosine similarity) of the nearest among `memories` (one subject's, hard-filtered;
    `filtered`: their ids' SQL already compiled, which recall has at hand).

    Subjects up to RECALL_EXACT_SCAN_MAX vectors are scanned exactly (recall@10 1.0), see
    `exact_query`. Above it the model's HNSW index with pgvector's iterative scan is used —
    measured with random vectors at 1% selectivity it recalled only 0.14–0.40, so keep the limit
    above your largest subjects.
    """
    if _subject_size(index, subject) <= settings.RECALL_EXACT_SCAN_MAX:
        shortlist = limit * EXACT_SHORTLIST
        if filtered is None:
            sql, params = memories.values("id").query.sql_with_params()
            filtered = sql, list(params)
        query: dict[str, Any] = dict(
            index=index, filtered=filtered, subject=subject, query_vector=query_vector, limit=limit
        )
        with connection.cursor() as cursor:
            cursor.execute(*exact_query(**query, shortlist=shortlist))
            rows = cursor.fetchall()
            shortlisted = rows[0][2] if rows else shortlist
            if len(rows) < limit and shortlisted == shortlist:  # a narrow filter: rank every vector
                cursor.execute(*exact_query(**query, shortlist=None))
                rows = cursor.fetchall()
        return [(memory_id, 1 - distance) for memory_id, distance, _ in rows]
    distance = CosineDistance(Cast("embedding", VectorField(dimensions=index.dimension)), query_vector)
    rows = (
        MemoryEmbedding.objects.filter(model_id=index.model_id, subject=subject, memory__in=memories)
        .annotate(distance=distance)
        .order_by("distance", "memory_id")
        .values_list("memory_id", "distance")[:limit]
    )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("SET LOCAL hnsw.ef_search = 200")
        return sorted(((memory_id, 1 - d) for memory_id, d in rows), key=lambda row: (-row[1], str(row[0])))


# The exact scan shortlists this many times `limit` of the subject's nearest vectors, then applies
# the filters; only when fewer than `limit` pass (a filter on one session, say) does it rank all.
EXACT_SHORTLIST = 4


def exact_query(
    *,
    index: EmbeddingIndex,
    filtered: tuple[str, list],
    subject: Subject,
    query_vector: np.ndarray,
    limit: int,
    shortlist: int | None,
) -> tuple[str, list]:
    """The exact scan as (sql, params): the subject's `shortlist` nearest vectors (all of them if
    None), then the hard filters (`filtered`: the SQL selecting the ids that pass them) applied to
    those, nearest first, up to `limit`.
    Rows are (memory id, distance, how many vectors were shortlisted).

    Ranking comes first, in a CTE the planner keeps apart (it is read twice): a top-N sort over
    the subject's vectors and ~`shortlist` primary-key lookups, instead of joining every memory of
    the subject before sorting (a 9,000-vector subject: 7 ms instead of 15-20 ms, and the planner
    cannot pick a hash join of both sides). The distance is on the bare column, so the planner
    cannot serve it from the HNSW index (built on the cast expression), which would return its top
    candidates BEFORE the subject filter.
    """
    filtered_sql, filter_params = filtered
    sql = (
        "WITH ranked AS ("
        f" SELECT memory_id, embedding <=> %s::vector AS distance FROM {MemoryEmbedding._meta.db_table}"
        " WHERE model_id = %s AND subject_id = %s ORDER BY distance, memory_id LIMIT %s"
        ") SELECT memory_id, distance, (SELECT count(*) FROM ranked) FROM ranked"
        f" WHERE memory_id IN ({filtered_sql}) ORDER BY distance, memory_id LIMIT %s"
    )
    return sql, [vector_literal(query_vector), index.model_id, subject.pk, shortlist, *filter_params, limit]


# (model id, subject id) → (valid until, vector count). Only the choice of path depends on the
# count, and both paths answer with the subject's nearest memories: a minute-old count is fine.
subject_sizes: dict[tuple[str, int], tuple[float, int]] = {}
SUBJECT_SIZE_TTL = 60.0


def _subject_size(index: EmbeddingIndex, subject: Subject) -> int:
    """The subject's vector count, counted only up to the exact-scan limit (an index-only scan),
    remembered by this process for SUBJECT_SIZE_TTL seconds."""
    key, now = (index.model_id, subject.pk), time.monotonic()
    valid_until, size = subject_sizes.get(key, (0.0, 0))
    if valid_until > now:
        return size
    cap = settings.RECALL_EXACT_SCAN_MAX + 1
    size = MemoryEmbedding.objects.filter(model_id=index.model_id, subject=subject)[:cap].count()
    if len(subject_sizes) > 50_000:
        subject_sizes.clear()
    subject_sizes[key] = (now + SUBJECT_SIZE_TTL, size)
    return size
