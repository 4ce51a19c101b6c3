"""Recall's reads of the database, as two hand-written statements.

Django's ORM building, compiling and instantiating the five querysets these replace (keyword,
recent and profile legs; candidates with their sources and stored vectors; adjacent turns) was
about a third of a recall's CPU (README, Benchmarks). The hard filters still have one definition:
`engine.recall_queryset`, compiled once per recall into `Base` and inlined by PostgreSQL wherever
a statement reads `b`.

- `legs`, run while the query is embedded: keyword hits (BM25 or ts_rank), the newest memories
  and the profile facts a question asks for, in one round trip.
- `candidates`, once the vector leg answered: those memories with their source and agent, their
  stored vector for the active index and, for episodes, the previous turn of their session.
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, models
from django.db.models import QuerySet

from apps.accounts.models import Agent
from apps.memories.models import Memory, MemoryEmbedding, Source
from apps.memories.search import CONFIG
from memoryadmin.db import binary_cursor

BM25_K1, BM25_B = 1.2, 0.75
# What scoring, the memory block and the API's answer read of a memory and its source (attnames).
MEMORY_FIELDS = {
    "id",
    "subject_id",
    "kind",
    "category",
    "key",
    "value",
    "text",
    "importance",
    "pinned",
    "occurred_at",
    "updated_at",
    "session_id",
    "source_id",
}
SOURCE_FIELDS = {
    "id",
    "agent_id",
    "session_id",
    "turn_id",
    "channel",
    "actor_type",
    "extractor",
    "extractor_version",
    "excerpt",
    "received_at",
}


def _in_model_order(model: type[models.Model], wanted: set[str]) -> list[str]:
    """`Model.from_db` takes a subset of the fields in the model's own order."""
    return [f.attname for f in model._meta.concrete_fields if f.attname in wanted]


_MEMORY_COLUMNS = _in_model_order(Memory, MEMORY_FIELDS)
_SOURCE_COLUMNS = _in_model_order(Source, SOURCE_FIELDS)
_AGENT_COLUMNS = ["id", "name"]


@dataclass
class Base:
    """The hard filters of one recall, compiled once: `WITH b AS (…)` in each statement."""

    sql: str
    params: list

    @classmethod
    def of(cls, memories: QuerySet[Memory]) -> "Base":
        columns = ("id", "kind", "category", "key", "pinned", "importance", "occurred_at", "updated_at", "session_id")
        sql, params = memories.values(*columns, "search").query.sql_with_params()
        return cls(sql, list(params))

    def ids(self) -> tuple[str, list]:
        """`SELECT id` of the filtered memories, for a statement of its own (the vector leg)."""
        return f"SELECT b.id FROM ({self.sql}) b", list(self.params)


@dataclass
class Legs:
    keyword: dict = field(default_factory=dict)  # memory id → keyword score, best first
    recent: list = field(default_factory=list)  # the newest memories' ids
    profile: set = field(default_factory=set)  # profile facts the query asks for or needs


def legs(base: Base, *, terms: list[str], keyword_limit: int, recent: int, asked_keys: set[str], needs: bool) -> Legs:
    """The keyword, recent and profile legs in one statement. `terms` empty: no keyword leg;
    `recent` 0: no recent leg; profile facts under `asked_keys`, and with `needs` also the
    constraints and pinned facts (a need question), by importance."""
    ctes, params, parts = [f"b AS NOT MATERIALIZED ({base.sql})"], [*base.params], []
    if terms:
        sql, keyword_params = _keyword(terms, keyword_limit)
        ctes.append(sql)
        params += keyword_params
        parts.append("SELECT 1, k.id, k.score FROM k")
    if recent:
        ctes.append(
            "r AS (SELECT b.id FROM b ORDER BY b.occurred_at DESC NULLS LAST, b.updated_at DESC, b.id DESC LIMIT %s)"
        )
        params.append(recent)
        parts.append("SELECT 2, r.id, NULL FROM r")
    if asked_keys or needs:
        wanted = "b.key = ANY(%s)" + (" OR b.category = %s OR b.pinned" if needs else "")
        ctes.append(
            f"p AS (SELECT b.id FROM b WHERE b.kind = %s AND ({wanted}) ORDER BY b.importance DESC, b.id LIMIT %s)"
        )
        params += [Memory.Kind.PROFILE, sorted(asked_keys)]
        params += [Memory.Category.CONSTRAINT] if needs else []
        params.append(settings.RECALL_NEED_CANDIDATES)
        parts.append("SELECT 3, p.id, NULL FROM p")
    found = Legs()
    if not parts:
        return found
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} " + " UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    keyword = sorted((-float(score), str(memory_id), memory_id) for leg, memory_id, score in rows if leg == 1)
    # BM25 scores of terms in every memory are ~0: such a hit says nothing (ts_rank keeps all hits).
    bm25 = settings.RECALL_KEYWORD_SCORING == "bm25"
    found.keyword = {memory_id: -negative for negative, _, memory_id in keyword if not bm25 or negative < 0}
    found.recent = [memory_id for leg, memory_id, _ in rows if leg == 2]
    found.profile = {memory_id for leg, memory_id, _ in rows if leg == 3}
    return found


def _keyword(terms: list[str], limit: int) -> tuple[str, list]:
    """CTE `k` (id, score): the best `limit` full-text hits of any term, best first (ties by id).

    BM25 (RECALL_KEYWORD_SCORING=bm25): term frequency is binary (memories are a sentence or two);
    a term's document frequency is counted over the hits — exactly its count among the subject's
    memories, since every memory containing a query term is a hit — and N is the subject's memory
    count, so a word in every memory (the speaker's name, say) weighs ~0. The average length is
    the hits' (close enough, and it costs no second scan)."""
    term_queries = ["plainto_tsquery(%s::regconfig, %s)"] * len(terms)
    term_params = [p for term in terms for p in (CONFIG, term)]
    any_term = " || ".join(term_queries)
    if settings.RECALL_KEYWORD_SCORING == "ts_rank":
        sql = (
            f"k AS (SELECT b.id, ts_rank(b.search, q.q, 32) AS score FROM b, (SELECT {any_term} AS q) q"
            " WHERE b.search @@ q.q ORDER BY score DESC, b.id LIMIT %s)"
        )
        return sql, [*term_params, limit]
    matched = ", ".join(f"(b.search @@ {q}) AS h{i}" for i, q in enumerate(term_queries))
    frequencies = ", ".join(f"count(*) FILTER (WHERE h{i}) AS d{i}" for i in range(len(terms)))
    idf = " + ".join(
        f"CASE WHEN h.h{i} THEN ln(1 + (s.n - s.d{i} + 0.5) / (s.d{i} + 0.5)) ELSE 0 END" for i in range(len(terms))
    )
    sql = (
        f"h AS (SELECT b.id, length(b.search) AS dl, {matched} FROM b WHERE b.search @@ ({any_term})),"
        f" s AS (SELECT avg(dl) AS avgdl, (SELECT count(*) FROM b) AS n, {frequencies} FROM h),"
        f" k AS (SELECT h.id, ({idf}) * %s / (1 + %s * (1 - %s + %s * h.dl / greatest(s.avgdl, 1))) AS score"
        " FROM h, s ORDER BY score DESC, h.id LIMIT %s)"
    )
    return sql, [*term_params, *term_params, BM25_K1 + 1, BM25_K1, BM25_B, BM25_B, limit]


@dataclass
class Fetched:
    memories: dict = field(default_factory=dict)  # id → Memory (with .source and its .agent), by str(id)
    vectors: dict = field(default_factory=dict)  # id → stored vector in pgvector's binary form
    previous: dict = field(default_factory=dict)  # episode id → the previous episode of its session


def candidates(base: Base, ids: set, *, model_id: str | None) -> Fetched:
    """The memories `ids` that still pass the hard filters, with their source (and its agent) as
    `select_related` would attach them; with `model_id`, their stored vectors for it (binary, as
    parsing the text form of 60 vectors of 512 floats cost recall 5-8 ms); and for each episode
    with a time, the previous one of its session among the filtered memories (occurred_at, then
    id: one lag() over those sessions' episodes)."""
    fetched = Fetched()
    if not ids:
        return fetched
    episode = Memory.Kind.EPISODE
    memory_columns = ", ".join(f"m.{c}" for c in _MEMORY_COLUMNS)
    source_columns = ", ".join(f"s.{c}" for c in _SOURCE_COLUMNS)
    vector = "vector_send(e.embedding)" if model_id else "NULL"
    sql = (
        f"WITH b AS NOT MATERIALIZED ({base.sql}),"
        " c AS (SELECT b.id, b.kind, b.session_id, b.occurred_at FROM b WHERE b.id = ANY(%s)),"
        " p AS (SELECT b.id, lag(b.id) OVER (PARTITION BY b.session_id ORDER BY b.occurred_at, b.id) AS previous"
        " FROM b WHERE b.kind = %s AND b.occurred_at IS NOT NULL AND b.session_id IN"
        " (SELECT c.session_id FROM c WHERE c.kind = %s AND c.occurred_at IS NOT NULL))"
        f" SELECT {memory_columns}, {source_columns}, a.name, {vector}, p.previous"
        f" FROM c JOIN {Memory._meta.db_table} m ON m.id = c.id"
        f" LEFT JOIN {Source._meta.db_table} s ON s.id = m.source_id"
        f" LEFT JOIN {Agent._meta.db_table} a ON a.id = s.agent_id"
        + (
            f" LEFT JOIN {MemoryEmbedding._meta.db_table} e ON e.memory_id = m.id AND e.model_id = %s"
            if model_id
            else ""
        )
        + " LEFT JOIN p ON p.id = m.id"
    )
    params = [*base.params, list(ids), episode, episode] + ([model_id] if model_id else [])
    with binary_cursor(prepared=True) as cursor:  # ~40 stored vectors as bytes, not hex; planned once
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    alias, memory_end = connection.alias, len(_MEMORY_COLUMNS)
    source_end = memory_end + len(_SOURCE_COLUMNS)
    source_field, agent_field = Memory._meta.get_field("source"), Source._meta.get_field("agent")
    for row in sorted(rows, key=lambda row: str(row[0])):
        memory = Memory.from_db(alias, _MEMORY_COLUMNS, row[:memory_end])
        source = None
        if memory.source_id is not None:
            source = Source.from_db(alias, _SOURCE_COLUMNS, row[memory_end:source_end])
            agent = (
                None if source.agent_id is None else Agent.from_db(alias, _AGENT_COLUMNS, [source.agent_id, row[-3]])
            )
            agent_field.set_cached_value(source, agent)
        source_field.set_cached_value(memory, source)
        fetched.memories[memory.id] = memory
        if row[-2] is not None:
            fetched.vectors[memory.id] = row[-2]
        if row[-1] is not None:
            fetched.previous[memory.id] = row[-1]
    return fetched
