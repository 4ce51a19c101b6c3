"""Recall at scale: latency and quality of the vector leg, of recall() and of HTTP recall.

    .venv/bin/python bench/bench_recall.py                                   # 1,000,000 memories, 10,000 subjects
    .venv/bin/python bench/bench_recall.py --memories 50000 --subjects 500   # a quick try-out

In a throw-away database (common.throwaway_database: named after this process) on the embedded
PostgreSQL:

1. load: --memories memories of --subjects subjects in one workspace, with COPY; one "big" subject
   holds --big of them, the others share the rest. ~90% active, the rest superseded / deleted /
   expired; ~3% of the active ones carry an expiry (half of it in the past). The big subject's rows
   get a `search` tsvector (jieba-segmented, like the app writes it) so the keyword leg has work.
2. vectors: random unit vectors (fixed seed) as MemoryEmbedding rows of every active memory for the
   active model (binary COPY); then the app's partial HNSW index (`store.hnsw_index_create`, built
   after the load with maintenance_work_mem 4GB and 2 parallel workers) and VACUUM ANALYZE.
3. retrieval only: `store.nearest` as recall calls it (limit = RECALL_CANDIDATES) for the big subject
   with the exact path and with the HNSW path (RECALL_EXACT_SCAN_MAX toggled) and for typical
   subjects, plus the plans PostgreSQL picked (the "path" only decides the settings; the planner
   decides whether the HNSW index is used).
4. recall@10 of what nearest serves, against exact search in numpy over the subject's active,
   unexpired memories.
5. `recall()` in-process (query embedding, all legs, scoring, MMR, packing), with a per-stage
   breakdown (every SQL statement timed by stage).
6. HTTP recall over a real socket: Django's ThreadedWSGIServer in a background thread (TCP_NODELAY,
   request log off), keep-alive clients, varied mixed zh/en queries, big and typical subjects.

Rows marked "info" are measured alternatives (proposed fixes, other settings), not the app as
configured; they have no target. Alternatives are interleaved with the app's own measurement (query
by query, or in blocks of 25) so that load from other processes on this shared machine hits both
alike. Before each measured phase the script waits (--quiet-wait) for the machine's CPU pressure to
drop, and prints it: the latencies move with it.

Targets: retrieval p99 <= 20 ms, recall@10 >= 0.98, HTTP p95 <= 50 ms. Prints figures; not a test.
"""

import argparse
import http.client
import json
import os
import statistics
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

import numpy as np  # noqa: E402
from common import (  # first: the app's process settings
    cpu_pressure,
    percentile,
    raw_params,
    setup_django,
    throwaway_database,
    wait_for_quiet,
)
from synthetic import EPISODE_CATEGORIES, PROFILE_CATEGORIES, QUERY_TEMPLATES, TEMPLATES, fill  # noqa: E402

os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")  # the HTTP phase talks to 127.0.0.1
setup_django()

import psycopg  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.db.models.functions import Cast  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402
from pgvector.django import CosineDistance, VectorField  # noqa: E402
from pgvector.psycopg import register_vector  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Subject, Workspace  # noqa: E402
from apps.accounts.services import apikey_issue  # noqa: E402
from apps.memories.embeddings import get_embedder, store  # noqa: E402
from apps.memories.models import MemoryEmbedding  # noqa: E402
from apps.memories.recall import engine  # noqa: E402
from apps.memories.recall.engine import recall, recall_queryset  # noqa: E402
from apps.memories.search import search_document  # noqa: E402
from memoryadmin.warmup import warm_up  # noqa: E402

SEED = 20240601
EMBEDDINGS = "memories_memoryembedding"

# --- Synthetic texts (short, mixed zh/en) -----------------------------------------------------------


def text_queries(n: int, seed: int) -> list[str]:
    """n varied queries; every third joins two questions ("…，还有 …" / "… and …")."""
    rng = np.random.default_rng(seed)
    queries = []
    for i in range(n):
        text = fill(QUERY_TEMPLATES[rng.integers(len(QUERY_TEMPLATES))], rng)
        if i % 3 == 0:
            text += ("，还有" if rng.random() < 0.5 else " and ") + fill(
                QUERY_TEMPLATES[rng.integers(len(QUERY_TEMPLATES))], rng
            )
        queries.append(text)
    return queries


def unit_vectors(rng: np.random.Generator, n: int, dimension: int) -> np.ndarray:
    v = rng.standard_normal((n, dimension), dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


# --- Loading --------------------------------------------------------------------------------------
MEMORY_COLUMNS = (
    "id",
    "workspace_id",
    "subject_id",
    "kind",
    "category",
    "key",
    "value",
    "text",
    "confidence",
    "importance",
    "pinned",
    "sensitivity",
    "status",
    "version",
    "lineage",
    "supersedes_id",
    "valid_from",
    "valid_to",
    "expires_at",
    "session_id",
    "occurred_at",
    "source_id",
    "redactions",
    "metadata",
    "search",
    "access_count",
    "last_accessed_at",
    "created_at",
    "updated_at",
)


class Tracked:
    """What the ground truth needs of one subject: its active memories' ids, vectors and expiry."""

    def __init__(self) -> None:
        self.ids: list = []
        self.vectors: list = []
        self.unexpired: list = []

    def finish(self) -> None:
        self.ids = np.array(self.ids, dtype=object)
        self.vectors = np.vstack(self.vectors).astype(np.float64)
        self.unexpired = np.array(self.unexpired, dtype=bool)

    @property
    def size(self) -> int:
        return int(self.unexpired.sum())

    def truth(self, query: np.ndarray, k: int) -> set:
        ids, vecs = self.ids[self.unexpired], self.vectors[self.unexpired]
        return set(ids[np.argsort(-(vecs @ query.astype(np.float64)))[:k]])


def subject_sizes(memories: int, subjects: int, big: int) -> list[int]:
    base, extra = divmod(memories - big, subjects - 1)
    return [big] + [base + (i < extra) for i in range(subjects - 1)]


def load_memories(args, workspace, subject_ids: list[int], tracked: dict) -> tuple[list, list]:
    """COPY the memories (Django's own psycopg connection); returns the active rows and the big subject's
    search documents."""
    rng = np.random.default_rng(SEED)
    now = timezone.now()
    year = 365 * 86400
    active_rows, big_docs = [], []
    raw = connection.cursor().connection
    raw.execute("SET session_replication_role = replica")  # no per-row FK triggers: consistent by construction
    bar = tqdm(total=args.memories, desc="COPY memories", unit="row", unit_scale=True)
    with raw.cursor() as cursor, cursor.copy(f"COPY memories_memory ({', '.join(MEMORY_COLUMNS)}) FROM STDIN") as copy:
        session = 0
        sizes = subject_sizes(args.memories, args.subjects, args.big)
        for position, (sid, size) in enumerate(zip(subject_ids, sizes, strict=True)):
            profile_draw, status_draw, expiry_draw = rng.random(size), rng.random(size), rng.random(size)
            created_offsets, updated_frac = rng.random(size) * year, rng.random(size)
            confidence, importance = rng.random(size), rng.random(size)
            pinned, sensitive = rng.random(size) < 0.01, rng.random(size) < 0.05
            category_draw, template_draw = rng.integers(0, 12, size), rng.integers(0, 1000, size)
            id_bytes = rng.bytes(16 * size)
            for j in range(size):
                memory_id = uuid.UUID(bytes=id_bytes[16 * j : 16 * j + 16], version=4)
                profile = bool(profile_draw[j] < 0.4)
                category = (
                    PROFILE_CATEGORIES[category_draw[j] % 4] if profile else EPISODE_CATEGORIES[category_draw[j] % 2]
                )
                templates = TEMPLATES[category]
                text = fill(templates[template_draw[j] % len(templates)], rng)
                created = now - timedelta(seconds=float(created_offsets[j]))
                updated = created + timedelta(seconds=float(created_offsets[j] * updated_frac[j] * 0.5))
                draw = status_draw[j]
                status = (
                    "active"
                    if draw < 0.90
                    else "superseded"
                    if draw < 0.95
                    else "deleted"
                    if draw < 0.98
                    else "expired"
                )
                valid_to = expires_at = None
                if status == "active" and expiry_draw[j] < 0.03:
                    expires_at = now + timedelta(days=30) if expiry_draw[j] < 0.015 else now - timedelta(days=3)
                elif status in ("superseded", "expired"):
                    valid_to = updated
                    expires_at = updated if status == "expired" else None
                key = value = session_id = ""
                occurred_at = None
                if profile:
                    key, value = f"{category}-{j}", text
                else:
                    session += 1
                    session_id, occurred_at = f"sess-{session // 5}", created
                if status == "deleted":  # what forgetting leaves behind
                    text = value = ""
                copy.write_row(
                    (
                        memory_id,
                        workspace.pk,
                        sid,
                        "profile" if profile else "episode",
                        category,
                        key,
                        value,
                        text,
                        float(confidence[j]),
                        float(importance[j]),
                        bool(pinned[j]),
                        "sensitive" if sensitive[j] else "normal",
                        status,
                        1,
                        memory_id,
                        None,
                        created,
                        valid_to,
                        expires_at,
                        session_id,
                        occurred_at,
                        None,
                        "{}",
                        "{}",
                        None,
                        0,
                        None,
                        created,
                        updated,
                    )
                )
                if status == "active":
                    active_rows.append((memory_id, sid))
                    if sid in tracked:
                        tracked[sid].ids.append(memory_id)
                        tracked[sid].unexpired.append(expires_at is None or expires_at > now)
                    if position == 0:
                        big_docs.append((memory_id, search_document(text)))
            bar.update(size)
    bar.close()
    raw.execute("SET session_replication_role = DEFAULT")
    return active_rows, big_docs


def fill_search(big_docs: list) -> None:
    """search = to_tsvector('english', <jieba-segmented text>) for the big subject (what services write)."""
    raw = connection.cursor().connection
    with raw.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE bench_docs (id uuid PRIMARY KEY, doc text)")
        with cursor.copy("COPY bench_docs (id, doc) FROM STDIN") as copy:
            for row in big_docs:
                copy.write_row(row)
        cursor.execute(
            "UPDATE memories_memory m SET search = to_tsvector('english', d.doc) FROM bench_docs d WHERE m.id = d.id"
        )
        cursor.execute("DROP TABLE bench_docs")


def load_vectors(index, workspace, active_rows: list, tracked: dict) -> None:
    """Binary COPY through a connection of its own with pgvector's adapters registered (Django's
    connection keeps parsing vectors the way the app does)."""
    rng = np.random.default_rng(SEED + 1)
    with psycopg.connect(**raw_params(), autocommit=True) as conn:
        register_vector(conn)
        conn.execute("SET session_replication_role = replica")
        bar = tqdm(total=len(active_rows), desc="COPY vectors", unit="row", unit_scale=True)
        with (
            conn.cursor() as cursor,
            cursor.copy(
                f"COPY {EMBEDDINGS} (memory_id, workspace_id, subject_id, model_id, embedding) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["uuid", "int8", "int8", "varchar", "vector"])
            for start in range(0, len(active_rows), 20000):
                rows = active_rows[start : start + 20000]
                for (memory_id, sid), vector in zip(rows, unit_vectors(rng, len(rows), index.dimension), strict=True):
                    copy.write_row((memory_id, workspace.pk, sid, index.model_id, vector))
                    if sid in tracked:
                        tracked[sid].vectors.append(vector)
                bar.update(len(rows))
        bar.close()


def build_hnsw(index, n_vectors: int) -> list[str]:
    """The app's HNSW index (`store.hnsw_index_create`, same SQL), built after the load; returns the
    server's notices (e.g. the graph outgrowing maintenance_work_mem)."""
    stop, notices = threading.Event(), []

    def progress() -> None:  # pg_stat_progress_create_index, read from another connection
        bar = tqdm(total=n_vectors, desc="HNSW build", unit="vec", unit_scale=True)
        with psycopg.connect(**raw_params(), autocommit=True) as conn:
            while not stop.wait(2):
                row = conn.execute(
                    "SELECT tuples_done, phase FROM pg_stat_progress_create_index WHERE datname = current_database()"
                ).fetchone()
                if row:
                    bar.n = min(row[0] or 0, n_vectors)
                    bar.set_postfix_str(row[1] or "", refresh=False)
                    bar.refresh()
        bar.close()

    watcher = threading.Thread(target=progress, daemon=True)
    watcher.start()
    raw = connection.cursor().connection

    def on_notice(diagnostic) -> None:
        notices.append(f"{diagnostic.severity}: {diagnostic.message_primary} {diagnostic.message_detail or ''}".strip())

    raw.add_notice_handler(on_notice)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '4GB'")  # the 1M-vector graph is ~2.5 GB
            cursor.execute("SET max_parallel_maintenance_workers = 2")
            store.hnsw_index_create(index)
            cursor.execute("RESET maintenance_work_mem")
            cursor.execute("RESET max_parallel_maintenance_workers")
    finally:
        raw.remove_notice_handler(on_notice)
        stop.set()
        watcher.join()
    return notices


# --- Reporting ------------------------------------------------------------------------------------
class Summary:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def latency(
        self, name: str, samples: list[float], key: str | None, limit: float | None, extra: str = "", valid: bool = True
    ) -> None:
        p50, p95, p99 = (percentile(samples, p) for p in (50, 95, 99))
        print(
            f"  {name}: n={len(samples)} p50={p50:.2f} p95={p95:.2f} p99={p99:.2f} max={max(samples):.2f} "
            f"mean={statistics.fmean(samples):.2f} ms{extra}"
        )
        value = f"p50 {p50:.1f} / p95 {p95:.1f} / p99 {p99:.1f} ms"
        target = "-" if key is None else f"{key} <= {limit:g} ms"
        if not valid:
            verdict = "INVALID (errors)"
        elif key is None:
            verdict = "info"
        else:
            verdict = "PASS" if {"p50": p50, "p95": p95, "p99": p99}[key] <= limit else "MISS"
        self.rows.append((name, value, target, verdict))

    def quality(self, name: str, value: float, target: float | None) -> None:
        verdict = "info" if target is None else ("PASS" if value >= target else "MISS")
        self.rows.append((name, f"{value:.4f}", "-" if target is None else f">= {target:g}", verdict))

    def info(self, name: str, value: str) -> None:
        self.rows.append((name, value, "-", "info"))

    def print(self) -> None:
        widths = [max(len(r[i]) for r in self.rows) for i in range(3)]
        print("\n=== Summary ===")
        print(f"{'figure':<{widths[0]}}  {'value':<{widths[1]}}  {'target':<{widths[2]}}  verdict")
        for name, value, target, verdict in self.rows:
            print(f"{name:<{widths[0]}}  {value:<{widths[1]}}  {target:<{widths[2]}}  {verdict}")


# --- The vector leg -------------------------------------------------------------------------------
def exact_sql(index, subject, query_vector, limit: int) -> tuple[str, list]:
    """The SQL of `store.nearest`'s exact path."""
    memories = recall_queryset(workspace=subject.workspace, subject=subject, now=timezone.now())
    sql, params = memories.values("id").query.sql_with_params()
    return store.exact_query(
        index=index,
        filtered=(sql, list(params)),
        subject=subject,
        query_vector=query_vector,
        limit=limit,
        shortlist=limit * store.EXACT_SHORTLIST,
    )


def nearest_queryset(index, subject, query_vector, limit: int, cast: bool = True):
    """The query of `store.nearest`'s HNSW path (cast=True); cast=False is the exact path as it was
    before ranking moved ahead of the filters: every memory of the subject joined, then sorted."""
    memories = recall_queryset(workspace=subject.workspace, subject=subject, now=timezone.now())
    embedding = Cast("embedding", VectorField(dimensions=index.dimension)) if cast else "embedding"
    return (
        MemoryEmbedding.objects.filter(model_id=index.model_id, subject=subject, memory__in=memories)
        .annotate(distance=CosineDistance(embedding, query_vector))
        .order_by("distance")
        .values_list("memory_id", "distance")[:limit]
    )


def plan_outline(query, sets: tuple[str, ...] = ()) -> str:
    """EXPLAIN ANALYZE of a queryset or (sql, params), reduced to its plan nodes, the rows returned and
    the execution time."""
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in sets:
            cursor.execute(statement)
        sql, params = query if isinstance(query, tuple) else query.query.sql_with_params()
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        lines = [row[0] for row in cursor.fetchall()]
    nodes, rows_out = [], ""
    for number, line in enumerate(lines):
        text = line.strip()
        if text.startswith("->") or number == 0:
            name = text.lstrip("-> ").split("  (")[0]
            nodes.append(name.replace("memories_memoryembedding", "embedding").replace("memories_memory", "memory"))
            if number == 0 and "rows=" in text:
                rows_out = text.split("actual ")[-1].split("rows=")[1].split()[0]
        elif text.startswith("Execution Time"):
            nodes.append(text.replace("Execution Time: ", "exec "))
    return " > ".join(nodes) + (f" (rows {rows_out})" if rows_out else "")


def app_nearest(index, exact_max: int):
    """store.nearest as recall calls it, with RECALL_EXACT_SCAN_MAX = exact_max."""

    def call(subject, query_vector, limit):
        with override_settings(RECALL_EXACT_SCAN_MAX=exact_max):
            memories = recall_queryset(workspace=subject.workspace, subject=subject, now=timezone.now())
            return store.nearest(
                index=index, memories=memories, subject=subject, query_vector=query_vector, limit=limit
            )

    return call


def exact_nocast(index):
    def call(subject, query_vector, limit):
        return [(m, 1 - d) for m, d in nearest_queryset(index, subject, query_vector, limit, cast=False)]

    return call


def hnsw_forced(index, ef_search: int):
    """nearest's HNSW query and settings, with sorting disabled so that the planner has to walk the
    index (what the HNSW path does whenever the planner picks the index)."""

    def call(subject, query_vector, limit):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            cursor.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            cursor.execute("SET LOCAL enable_sort = off")
            return [(m, 1 - d) for m, d in nearest_queryset(index, subject, query_vector, limit)]

    return call


def measure_interleaved(
    variants: list[tuple[str, list, object]], tracked, queries: np.ndarray, warmup: int, dimension: int
) -> dict:
    """Each query vector goes to every variant (label, subjects, call(subject, vector, limit)), in an
    order rotating per query, so that a burst of load on the shared machine hits all of them alike.
    Per variant: latencies, recall@10 of the first 10 rows served (and of the rows re-sorted by the
    similarity they came with) against exact search, and `short`: answers with fewer rows than
    min(limit, the subject's vectors)."""
    limit = settings.RECALL_CANDIDATES
    warm = unit_vectors(np.random.default_rng(SEED + 99), warmup, dimension)
    for _, subjects, call in variants:
        for i in range(warmup):
            call(subjects[i % len(subjects)], warm[i], limit)
    results = {label: {"samples": [], "recall": 0.0, "recall_sorted": 0.0, "short": 0} for label, _, _ in variants}
    for i, query in enumerate(tqdm(queries, desc="nearest, all variants", unit="q", leave=False)):
        for label, subjects, call in variants[i % len(variants) :] + variants[: i % len(variants)]:
            subject, result = subjects[i % len(subjects)], results[label]
            started = time.perf_counter()
            served = call(subject, query, limit)
            result["samples"].append((time.perf_counter() - started) * 1000)
            truth = tracked[subject.pk].truth(query, 10)
            result["short"] += len(served) < min(limit, tracked[subject.pk].size)
            result["recall"] += len(truth & {m for m, _ in served[:10]}) / len(truth) / len(queries)
            result["recall_sorted"] += (
                len(truth & {m for m, _ in sorted(served, key=lambda r: -r[1])[:10]}) / len(truth) / len(queries)
            )
    return results


# --- recall() breakdown -----------------------------------------------------------------------------
STAGES = (
    "embed",
    "active_index",
    "subject_size",
    "nearest",
    "keyword",
    "recent",
    "fetch",
    "set/savepoint",
    "other sql",
)
PYTHON = "python (ORM, scoring, MMR, packing)"


def classify(sql: str) -> str:
    if sql.startswith(("SET", "SAVEPOINT", "RELEASE", "ROLLBACK")):
        return "set/savepoint"
    if '"memories_embeddingindex"' in sql:
        return "active_index"
    if "COUNT(*)" in sql:
        return "subject_size"
    if "<=>" in sql:
        return "nearest"
    if "ts_rank" in sql or "plainto_tsquery" in sql:
        return "keyword"
    if '"occurred_at" DESC' in sql:
        return "recent"
    if '"memories_source"' in sql:  # the candidates, with their stored vectors
        return "fetch"
    return "other sql"


class Breakdown:
    """Times every SQL statement of a recall() by stage (execute only; rows are turned into objects in
    the Python share), plus the query embedding."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.runs: list[dict[str, float]] = []

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.current[classify(sql)] += (time.perf_counter() - started) * 1000

    def embed(self, original):
        """engine._embed_query, with the time recall spends waiting for the vector (the embedding runs
        while the keyword and recent legs do) counted as "embed"."""

        def wrapped(text, model):
            waiter = original(text, model)

            def timed_waiter():
                started = time.perf_counter()
                try:
                    return waiter()
                finally:
                    self.current["embed"] += (time.perf_counter() - started) * 1000

            return timed_waiter

        return wrapped

    def close(self, total_ms: float) -> None:
        self.current[PYTHON] = total_ms - sum(self.current.values())
        self.runs.append(dict(self.current))
        self.current = defaultdict(float)

    def table(self) -> str:
        keys = [k for k in (*STAGES, PYTHON) if any(k in r for r in self.runs)]
        return "; ".join(
            f"{k} {statistics.median(r.get(k, 0.0) for r in self.runs):.2f}/"
            f"{percentile([r.get(k, 0.0) for r in self.runs], 95):.2f}"
            for k in keys
        )


# --- HTTP ---------------------------------------------------------------------------------------------
def serve(nodelay: bool = True):
    """The app on 127.0.0.1 (a free port) in a daemon thread, like Django's LiveServerThread. With
    nodelay the handler sets TCP_NODELAY, as production servers do (gunicorn sets it on its TCP
    sockets): Django's handler writes the headers and the body in two sends, and with Nagle on the
    body waits for the client's delayed ACK (~40 ms on Linux) on every keep-alive response."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        disable_nagle_algorithm = nodelay

        def log_message(self, *args):
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=False)
    server.set_app(get_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, name="bench-http", daemon=True)
    thread.start()
    return server, thread


class HttpClient:
    """One keep-alive connection (so one server thread, with its own database connection) and one API key
    per measured variant."""

    def __init__(self, port: int, raw_key: str, targets: list[str]) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json"}
        self.targets = targets
        self.samples: list[float] = []
        self.statuses: dict[int, int] = defaultdict(int)
        self.empty = self.fallbacks = self.db_connections = 0
        self.first_error = ""

    def request(self, i: int, text: str, record: bool = True) -> None:
        body = json.dumps({"query": text, "top_k": 8})
        started = time.perf_counter()
        self.connection.request(
            "POST", f"/api/v1/subjects/{self.targets[i % len(self.targets)]}/recall", body=body, headers=self.headers
        )
        response = self.connection.getresponse()
        data = response.read()
        took = (time.perf_counter() - started) * 1000
        if response.status != 200 and not self.first_error:
            self.first_error = f"HTTP {response.status}: {data[:300]!r}"
        if record:
            self.samples.append(took)
            self.statuses[response.status] += 1
            answer = json.loads(data) if response.status == 200 else {}
            self.empty += not answer.get("memories")
            self.fallbacks += bool(answer.get("fallback"))

    @property
    def ok(self) -> bool:
        return set(self.statuses) == {200}

    def notes(self) -> str:
        return (
            f" | status {dict(self.statuses)}, db connections opened {self.db_connections}, empty answers "
            f"{self.empty}, fallbacks {self.fallbacks}"
            + (f"; first error {self.first_error}" if self.first_error else "")
        )


# --- Main ---------------------------------------------------------------------------------------------
@dataclass
class People:
    """The run's workspace and agent, the big subject, the typical subjects queried and the ground truth
    kept for them (by subject pk)."""

    workspace: Workspace
    agent: Agent
    big: Subject
    typical: list[Subject]
    tracked: dict[int, Tracked]
    subject_ids: list[int]  # the big subject's first


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Recall latency and quality at scale (see the module docstring).")
    parser.add_argument("--memories", type=int, default=1_000_000)
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--big", type=int, default=10_000, help="memories of the one big subject")
    parser.add_argument("--queries", type=int, default=300, help="measured queries / requests per figure")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--typical-sample", type=int, default=100, help="typical subjects queried (ground truth kept)")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=300,
        help="seconds to wait, before each measured phase, for the machine's CPU pressure to drop",
    )
    parser.add_argument("--no-extras", action="store_true", help="skip the 'info' alternatives")
    args = parser.parse_args()
    if args.subjects < 2 or args.big >= args.memories:
        parser.error("need at least 2 subjects and --big < --memories")
    args.extras = not args.no_extras
    return args


def quiet(args, phase: str) -> None:
    """Wait for the machine to get quiet (up to --quiet-wait), then name the phase and the pressure."""
    waited = wait_for_quiet(args.quiet_wait)
    print(f"\n[{phase}] ({cpu_pressure()}{f', after waiting {waited:.0f} s for it to drop' if waited >= 1 else ''})")


def drop_app_index():
    """The active index; its HNSW index is dropped, to be built again after the load with the same SQL."""
    index = store.active_index()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('shared_buffers'), current_setting('jit')")
        shared_buffers, jit = cursor.fetchone()
    print(
        f"database {connection.settings_dict['NAME']} (shared_buffers {shared_buffers}, jit {jit}); active index "
        f"{index.model_id} ({index.dimension}-d)"
    )
    with connection.cursor() as cursor:  # built again after the load, with the same SQL
        cursor.execute(f"DROP INDEX IF EXISTS {store.hnsw_index_name(index.model_id)}")
    return index


def create_people(args) -> People:
    workspace = Workspace.objects.create(name="Bench recall", slug="bench-recall")
    agent = Agent.objects.create(workspace=workspace, name="Bench Bot")
    Subject.objects.bulk_create(
        [Subject(workspace=workspace, external_id="big")]
        + [Subject(workspace=workspace, external_id=f"s{i:05d}") for i in range(1, args.subjects)],
        batch_size=5000,
    )
    big = Subject.objects.select_related("workspace").get(workspace=workspace, external_id="big")
    subject_ids = [big.pk] + list(
        Subject.objects.filter(workspace=workspace).exclude(pk=big.pk).order_by("pk").values_list("pk", flat=True)
    )
    typical_ids = [
        int(x)
        for x in np.random.default_rng(SEED + 2).choice(
            subject_ids[1:], size=min(args.typical_sample, args.subjects - 1), replace=False
        )
    ]
    return People(
        workspace=workspace,
        agent=agent,
        big=big,
        typical=list(Subject.objects.select_related("workspace").filter(pk__in=typical_ids).order_by("pk")),
        tracked={sid: Tracked() for sid in (big.pk, *typical_ids)},
        subject_ids=subject_ids,
    )


def load(args, index, people: People, summary: Summary) -> None:
    """Steps 1-2: memories, keyword documents, vectors, the HNSW index, VACUUM ANALYZE; timed."""
    timings = {}
    started = time.perf_counter()
    active_rows, big_docs = load_memories(args, people.workspace, people.subject_ids, people.tracked)
    timings["COPY memories"] = time.perf_counter() - started
    started = time.perf_counter()
    fill_search(big_docs)
    timings["search tsvector (big subject)"] = time.perf_counter() - started
    started = time.perf_counter()
    load_vectors(index, people.workspace, active_rows, people.tracked)
    timings["COPY vectors (binary)"] = time.perf_counter() - started
    for item in people.tracked.values():
        item.finish()
    started = time.perf_counter()
    notices = build_hnsw(index, len(active_rows))
    timings["HNSW index build"] = time.perf_counter() - started
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memories_memory")
        cursor.execute(f"VACUUM ANALYZE {EMBEDDINGS}")
    timings["VACUUM ANALYZE"] = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_pretty(pg_total_relation_size('memories_memory')), "
            f"pg_size_pretty(pg_relation_size('{EMBEDDINGS}')), "
            f"pg_size_pretty(pg_total_relation_size('{EMBEDDINGS}')), "
            "pg_size_pretty(pg_relation_size(%s))",
            [store.hnsw_index_name(index.model_id)],
        )
        sizes = cursor.fetchone()
    print(
        f"\nloaded {args.memories:,} memories and {len(active_rows):,} vectors ({cpu_pressure()}): memories_memory "
        f"{sizes[0]}; {EMBEDDINGS} heap {sizes[1]}, with TOAST and indexes {sizes[2]}; HNSW index {sizes[3]}"
    )
    for notice in notices:
        print(f"  server, during the HNSW build: {notice}")
    for name, seconds in timings.items():
        print(f"  {name}: {seconds:.1f} s")
        summary.info(f"load: {name}", f"{seconds:.1f} s")
    summary.info("load: total", f"{sum(timings.values()):.1f} s")


def measure_retrieval(args, index, people: People, summary: Summary) -> None:
    """Steps 3-4: store.nearest's latency per path and its recall@10 against exact search."""
    big, typical, tracked = people.big, people.typical, people.tracked
    typical_mean = statistics.fmean(tracked[s.pk].size for s in typical)
    default_max = settings.RECALL_EXACT_SCAN_MAX
    served_path = "exact" if len(tracked[big.pk].ids) <= default_max else "hnsw"
    print(
        f"big subject: {len(tracked[big.pk].ids)} vectors, {tracked[big.pk].size} of them unexpired; typical "
        f"subjects: {typical_mean:.1f} unexpired on average. With RECALL_EXACT_SCAN_MAX={default_max} the big "
        f"subject is served by the {served_path} path."
    )
    summary.info("big subject: vectors (unexpired)", f"{len(tracked[big.pk].ids)} ({tracked[big.pk].size})")

    quiet(
        args,
        f"retrieval: store.nearest, limit {settings.RECALL_CANDIDATES}, random unit query vectors, all variants "
        f"interleaved",
    )
    probe = unit_vectors(np.random.default_rng(SEED + 3), 1, index.dimension)[0]
    limit = settings.RECALL_CANDIDATES
    hnsw_sets = ("SET LOCAL hnsw.iterative_scan = relaxed_order", "SET LOCAL hnsw.ef_search = 200")
    print(f"  plan, exact path, big:     {plan_outline(exact_sql(index, big, probe, limit))}")
    print(f"  plan, hnsw path, big:      {plan_outline(nearest_queryset(index, big, probe, limit), hnsw_sets)}")
    print(f"  plan, exact path, typical: {plan_outline(exact_sql(index, typical[0], probe, limit))}")
    variants = [
        ("nearest big, exact path", [big], app_nearest(index, 10**9)),
        ("nearest big, hnsw path", [big], app_nearest(index, 0)),
        (f"nearest typical (~{typical_mean:.0f}), app setting", typical, app_nearest(index, default_max)),
    ]
    # The app as configured has targets; the big subject's other path is info.
    served_labels = {f"nearest big, {served_path} path", variants[2][0]}
    queries = unit_vectors(np.random.default_rng(SEED + 4), args.queries, index.dimension)
    results = measure_interleaved(variants, tracked, queries, args.warmup, index.dimension)
    if args.extras:
        # Measured apart: walking the HNSW graph reads far more pages than shared_buffers holds and
        # would evict the pages the served queries use.
        print(
            f"  plan, big, HNSW forced:    "
            f"{plan_outline(nearest_queryset(index, big, probe, limit), hnsw_sets + ('SET LOCAL enable_sort = off',))}"
        )
        extra_variants = [
            ("big, exact, join then sort (the query before ranking moved first)", [big], exact_nocast(index)),
            ("big, HNSW forced, ef_search 200 (app's)", [big], hnsw_forced(index, 200)),
            ("big, HNSW forced, ef_search 1000", [big], hnsw_forced(index, 1000)),
            ("typical via hnsw path (not served)", typical, app_nearest(index, 0)),
        ]
        results.update(measure_interleaved(extra_variants, tracked, queries, args.warmup, index.dimension))
        variants += extra_variants
    for label, _, _ in variants:
        result, main_figure = results[label], label in served_labels
        extra = (
            f" | recall@10 {result['recall']:.4f} (re-sorted {result['recall_sorted']:.4f}), "
            f"short answers {result['short']}"
        )
        name = label if main_figure else f"(info) {label}"
        summary.latency(name, result["samples"], "p99" if main_figure else None, 20 if main_figure else None, extra)
        summary.quality(
            f"recall@10 {label.removeprefix('nearest ')}" if main_figure else f"(info) recall@10 {label}",
            result["recall"],
            0.98 if main_figure else None,
        )
        if result["short"]:
            summary.info(f"{name}: answers with fewer rows than asked", f"{result['short']} of {args.queries}")
    served = results[f"nearest big, {served_path} path"]
    summary.quality(f"recall@10 served for the big subject ({served_path} path, app setting)", served["recall"], 0.98)
    print(f"  ({cpu_pressure()})")


def measure_recall(args, index, people: People, summary: Summary) -> None:
    """Step 5: recall() in-process, with the query embedding alone beside it and a per-stage breakdown."""
    workspace, big, typical = people.workspace, people.big, people.typical
    warm_up()  # as a web process does when it starts (models loaded, then gc.freeze())
    quiet(args, "recall() in-process: text queries, top_k 8")
    texts = text_queries(args.queries + args.warmup, SEED + 5)
    embedder = get_embedder(index.name)
    for i, text in enumerate(texts[: args.warmup]):
        recall(workspace=workspace, subject=big if i % 2 else typical[i % len(typical)], query=text, top_k=8)
    measured = texts[args.warmup :]
    cases = [("embed_query alone", None), ("recall() big", [big]), ("recall() typical", typical)]
    runs = {
        case: {"samples": [], "breakdown": Breakdown(), "fallbacks": 0, "legs": defaultdict(list)} for case, _ in cases
    }
    original_embed = engine._embed_query
    try:
        for start in tqdm(range(0, len(measured), 25), desc="recall()", unit="block", leave=False):
            for case, subjects in cases:
                run = runs[case]
                for i in range(start, min(start + 25, len(measured))):
                    if subjects is None:
                        begun = time.perf_counter()
                        embedder.embed_query(measured[i])
                        run["samples"].append((time.perf_counter() - begun) * 1000)
                        continue
                    engine._embed_query = run["breakdown"].embed(original_embed)
                    with connection.execute_wrapper(run["breakdown"]):
                        begun = time.perf_counter()
                        result = recall(
                            workspace=workspace,
                            subject=subjects[i % len(subjects)],
                            query=measured[i],
                            top_k=8,
                            include_trace=True,
                        )
                        took = (time.perf_counter() - begun) * 1000
                    run["breakdown"].close(took)
                    run["samples"].append(took)
                    run["fallbacks"] += result.fallback is not None
                    for leg, n in result.trace["legs"].items():
                        run["legs"][leg].append(n)
    finally:
        engine._embed_query = original_embed
    for case, subjects in cases:
        run = runs[case]
        extra = ""
        if subjects is not None:
            legs = ", ".join(f"{leg} {statistics.fmean(v):.1f}" for leg, v in run["legs"].items())
            extra = f" | fallbacks {run['fallbacks']}; mean candidates per leg: {legs}"
        summary.latency(case, run["samples"], None, None, extra)
        if subjects is not None and run["fallbacks"]:
            summary.info(f"{case}: keyword-only (fallback) answers", f"{run['fallbacks']} of {len(run['samples'])}")
        if subjects is not None:
            print(f"    stages, median/p95 ms: {run['breakdown'].table()}")
    print(f"  ({cpu_pressure()})")


def measure_http(args, people: People, summary: Summary) -> None:
    """Step 6: POST /recall over a real socket, big and typical subjects, a keep-alive client each."""
    http_variants = [("", True)]  # (label suffix, TCP_NODELAY)
    if args.extras:
        http_variants.append((" (info: Django's handler as is, Nagle on)", False))
    quiet(
        args,
        "http: POST /api/v1/subjects/<id>/recall on 127.0.0.1, a keep-alive client per variant"
        + (", variants interleaved in blocks of 25 requests" if len(http_variants) > 1 else ""),
    )
    servers = {nodelay: serve(nodelay) for nodelay in {v[1] for v in http_variants}}
    texts = text_queries(args.queries + args.warmup, SEED + 6)
    targets = {"big": ["big"], "typical": [s.external_id for s in people.typical]}
    conn_max_age = connection.settings_dict.get("CONN_MAX_AGE", 0)
    opened = []
    connection_created.connect(lambda **kw: opened.append(1), weak=False, dispatch_uid="bench-http-conn")
    clients = {}
    for suffix, nodelay in http_variants:
        for who in ("big", "typical"):
            _, raw_key = apikey_issue(agent=people.agent, scopes=["read", "write"])  # a key each: under the throttle
            clients[(suffix, who)] = HttpClient(servers[nodelay][0].server_address[1], raw_key, targets[who])
    try:
        for warm in (True, False):
            block = args.warmup if warm else 25
            total = args.warmup if warm else args.queries
            for start in tqdm(
                range(0, total, block), desc="http warm-up" if warm else "http", unit="block", leave=False
            ):
                for suffix, _nodelay in http_variants:
                    for who in ("big", "typical"):
                        client = clients[(suffix, who)]
                        before = len(opened)
                        for i in range(start, min(start + block, total)):
                            client.request(i, texts[-1 - i] if warm else texts[i], record=not warm)
                        client.db_connections += 0 if warm else len(opened) - before
    finally:
        connection_created.disconnect(dispatch_uid="bench-http-conn")
    for suffix, _nodelay in http_variants:
        for who in ("big", "typical"):
            client = clients[(suffix, who)]
            client.connection.close()
            main_figure = suffix == ""
            name = f"http {who}" + (suffix or f" (CONN_MAX_AGE={conn_max_age}, TCP_NODELAY)")
            summary.latency(
                name,
                client.samples,
                "p95" if main_figure else None,
                50 if main_figure else None,
                client.notes(),
                valid=client.ok,
            )
            if client.fallbacks:  # e.g. a query embedding over RECALL_EMBED_TIMEOUT pauses the embedder
                summary.info(f"{name}: keyword-only (fallback) answers", f"{client.fallbacks} of {len(client.samples)}")
    print(f"  ({cpu_pressure()})")
    for server, thread in servers.values():
        server.shutdown()
        server.server_close()
        thread.join()


def main() -> None:
    args = parse_args()
    summary = Summary()
    print(
        f"bench_recall: {args.memories:,} memories, {args.subjects:,} subjects (big: {args.big:,}); "
        f"{os.cpu_count()} CPUs; "
        f"RECALL_EXACT_SCAN_MAX={settings.RECALL_EXACT_SCAN_MAX}, RECALL_CANDIDATES={settings.RECALL_CANDIDATES}, "
        f"CONN_MAX_AGE={connection.settings_dict.get('CONN_MAX_AGE', 0)}, "
        f"RECALL_ACCESS_ASYNC={settings.RECALL_ACCESS_ASYNC}"
    )
    overall = time.perf_counter()
    with throwaway_database():  # at the end it also ends the access-log writer's session, then drops
        index = drop_app_index()
        people = create_people(args)
        load(args, index, people, summary)
        measure_retrieval(args, index, people, summary)
        measure_recall(args, index, people, summary)
        measure_http(args, people, summary)
        time.sleep(settings.RECALL_ACCESS_FLUSH_SECONDS * 2)  # the access-log writer's last batch
    print(f"\ntotal {time.perf_counter() - overall:.0f} s; database dropped")
    summary.print()


if __name__ == "__main__":
    main()
