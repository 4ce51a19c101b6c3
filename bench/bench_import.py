"""Batch import throughput: 10,000 memories (facts and episodes for 20 people, a few with personal
data to redact) posted to POST /subjects/{id}/memories:batch in batches of up to 500, in-process.
Embeddings included: tasks run eagerly, so each batch's memories are embedded (default embedder,
one call per batch) before its response returns. Every run checks that every memory got its vector.

Target: >= 200 memories/s. Run with `make bench` (or `--memories 2000 --repeats 1` to try it out).
"""

import argparse
import os
import random
import time
from collections import defaultdict

from common import percentile, setup_django, throwaway_database

os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # the in-process client's host
setup_django()

from rest_framework.test import APIClient  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Workspace  # noqa: E402
from apps.accounts.services import apikey_issue  # noqa: E402
from apps.memories.models import Memory, MemoryEmbedding  # noqa: E402
from apps.memories.vectors import active_index  # noqa: E402

VALUES = ["不吃辣", "prefers short answers", "用 PostgreSQL 和 pgvector", "dark mode, 深色主题", "lives in 杭州",
          "allergic to peanuts", "手机 13812345678", "email me at someone@example.com", "Python 3.11", "喜欢喝乌龙茶"]
EVENTS = ["2024-06-12 部署了 v2 版本", "退款已提交 for order {n}", "asked about the invoice of order {n}",
          "上周已经处理过这个客户的投诉", "migrated the staging cluster to K8s", "回电话 13912345678 确认地址"]


def items_by_subject(run: int, count: int, people: int, rng: random.Random) -> dict[str, list[dict]]:
    grouped = defaultdict(list)
    for n in range(count):
        subject = f"r{run}-p{rng.randrange(people)}"
        if rng.random() < 0.6:
            item = {"type": "fact", "key": f"k{rng.randrange(30)}", "value": f"{rng.choice(VALUES)} #{n}",
                    "category": rng.choice(["preference", "fact", "constraint", "goal"])}
        else:
            item = {"type": "episode", "text": rng.choice(EVENTS).format(n=n), "session_id": f"s{n // 20}"}
        grouped[subject].append(item | {"client_id": f"r{run}-{n}"})
    return grouped


def batches(grouped: dict[str, list[dict]], size: int):
    """Per person, chunks of `size`; the people's small groups packed into requests as they come."""
    for subject, items in grouped.items():
        for start in range(0, len(items), size):
            yield subject, items[start:start + size]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=20, help="distinct subjects (fewer = bigger batches)")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(11)
    with throwaway_database():
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        _, raw_key = apikey_issue(agent=Agent.objects.create(workspace=workspace, name="Import Bot"),
                                  scopes=["read", "write"])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
        model = active_index().name  # loads the default embedder before the clock starts
        client.post("/api/v1/subjects/warmup/memories:batch", {"items": [{"type": "episode", "text": "warm up"}]},
                    format="json")
        rates = []
        for run in range(args.repeats):
            grouped = items_by_subject(run, args.memories, args.people, rng)
            before = Memory.objects.count()
            latencies, started = [], time.perf_counter()
            with tqdm(total=args.memories, desc=f"import run {run + 1}", unit="memory") as progress:
                for subject, chunk in batches(grouped, 500):
                    sent = time.perf_counter()
                    response = client.post(f"/api/v1/subjects/{subject}/memories:batch", {"items": chunk},
                                           format="json")
                    latencies.append((time.perf_counter() - sent) * 1000)
                    assert response.status_code in (200, 201), response.content[:300]
                    progress.update(len(chunk))
            elapsed = time.perf_counter() - started
            written = Memory.objects.count() - before
            missing = Memory.objects.filter(status=Memory.Status.ACTIVE).exclude(embeddings__isnull=False).count()
            rates.append(args.memories / elapsed)
            print(f"run {run + 1}: {args.memories} items in {len(latencies)} requests, {elapsed:.1f} s → "
                  f"{rates[-1]:.0f} memories/s (rows written incl. superseded versions: {written}; active without "
                  f"a vector: {missing}); request p50 {percentile(latencies, 50):.0f} ms, "
                  f"p95 {percentile(latencies, 95):.0f} ms")
        print(f"batch import with {model} embeddings ({MemoryEmbedding.objects.count()} vectors): "
              f"{' / '.join(f'{r:.0f}' for r in rates)} memories/s | target >= 200/s: "
              f"{'PASS' if min(rates) >= 200 else 'MISS'}")


if __name__ == "__main__":
    main()
