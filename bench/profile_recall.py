"""CPU per recall request, in-process: where a recall's CPU goes (not a latency benchmark).

    .venv/bin/python bench/profile_recall.py                      # 300 requests, 3 rounds
    .venv/bin/python bench/profile_recall.py --cprofile 25        # + the 25 heaviest functions

Copies the seed `bench/load.py --reuse-seed` kept (or seeds a throw-away database the same way:
--subjects × --memories-per-subject memories, embedded by the app's sweep), then sends --requests
recall requests through Django's WSGI handler (the test Client: middleware, DRF, authentication,
throttle, serializer; the access log's background writer included) with the load's queries, one
at a time. It reports CPU time, not wall time, so that the figures hold better on a shared
machine: this process's CPU (every thread) and the PostgreSQL backend's (from /proc), per
request, with one query embedding (e5 and USE apart) and the rest. Each round starts with an
empty query-vector cache, so its hits are the queries repeated within the round. Compare the rows
of one run, or runs made one after the other; run it from another checkout (a copy of this file
and bench/load.py there) to profile that version.
"""

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # the test Client's host
import load  # noqa: E402,F401  (sets up Django like the load test: the same seeding and queries)
from common import throwaway_database  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from load import SEED, database_exists, database_from_template, query_text, seed, seed_template_name, seeded_copy

from apps.memories.embeddings import get_embedder  # noqa: E402
from apps.memories.recall import engine  # noqa: E402


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--subjects", type=int, default=200)
    parser.add_argument("--memories-per-subject", type=int, default=50)
    parser.add_argument("--embed-batch", type=int, default=1000)
    parser.add_argument("--cprofile", type=int, default=0, metavar="N", help="print the N heaviest functions")
    parser.add_argument("--profile-out", default="", metavar="FILE", help="write the last round's cProfile stats here")
    args = parser.parse_args()
    template = seed_template_name(args)
    reused = database_exists(template)  # the seed `bench/load.py --reuse-seed` kept, when there is one
    with database_from_template(template) if reused else throwaway_database():
        seeded = seeded_copy() if reused else seed(args)
        rng = random.Random(SEED)
        subjects = seeded.subjects
        queries = [(rng.choice(subjects), query_text(rng)) for _ in range(args.requests)]
        client = Client(HTTP_AUTHORIZATION=f"Bearer {seeded.raw_key}")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pg_pid,) = cursor.fetchone()

        def send(subject, query):
            response = client.post(
                f"/api/v1/subjects/{subject}/recall", {"query": query, "top_k": 8}, content_type="application/json"
            )
            assert response.status_code == 200, response.content[:300]
            return response

        for subject, query in queries[:20]:  # warm: models, jieba, caches of the first requests
            send(subject, query)
        embedder = get_embedder()
        parts = getattr(embedder, "_parts", (embedder,))
        print(
            f"{seeded.memories} memories, {len(subjects)} subjects; {args.requests} requests a round; "
            f"embedder {embedder.model_id}; CPU ms per request (this process all threads | PostgreSQL backend)"
        )
        for round_number in range(1, args.rounds + 1):
            profiling = (args.cprofile or args.profile_out) and round_number == args.rounds
            profiler = cProfile.Profile(time.thread_time) if profiling else None  # CPU of the request thread
            cpu0, pg0, wall0 = time.process_time(), backend_cpu(pg_pid), time.perf_counter()
            if profiler:
                profiler.enable()
            fallbacks = 0
            cache = getattr(engine, "query_vectors", None)  # a version without the query cache has none
            if cache is not None:
                cache.clear()  # each round starts cold: its hits are the queries repeated within it
            for subject, query in queries:
                fallbacks += bool(send(subject, query).json()["fallback"])
            if profiler:
                profiler.disable()
            cpu, pg, wall = time.process_time() - cpu0, backend_cpu(pg_pid) - pg0, time.perf_counter() - wall0
            embed = []
            for part in parts:  # the query embedding alone, same queries, thread CPU time
                started = time.thread_time()
                for _, query in queries:
                    part.embed_query(query)
                embed.append((part.model_id.split(":")[0], (time.thread_time() - started) * 1000 / len(queries)))
            n = len(queries)
            cached = cache is not None and settings.RECALL_QUERY_CACHE > 0
            embedded = len({query for _, query in queries}) if cached else n  # each distinct query once
            print(
                f"round {round_number}: request {cpu * 1000 / n:6.2f} | PostgreSQL {pg * 1000 / n:5.2f} ms "
                f"(wall {wall * 1000 / n:6.2f} ms, {fallbacks} fallbacks, {embedded} of {n} queries embedded); "
                "one query embedding: "
                + ", ".join(f"{name} {ms:.2f} ms" for name, ms in embed)
                + f"; the rest of the request {(cpu * 1000 - embedded * sum(ms for _, ms in embed)) / n:.2f} ms"
            )
            if profiler and args.profile_out:
                profiler.dump_stats(args.profile_out)
            if profiler and args.cprofile:
                stats = pstats.Stats(profiler, stream=sys.stdout)
                stats.sort_stats("tottime").print_stats(args.cprofile)
                stats.sort_stats("cumulative").print_stats(args.cprofile * 2)


if __name__ == "__main__":
    main()
