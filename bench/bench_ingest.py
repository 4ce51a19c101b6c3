"""Turn ingestion end to end: agents POST turns (timed: the 202), a real Celery worker (separate
process, Redis broker) extracts with the rule extractor, embeds and writes. Prints turns/s from
the first POST to the last finished ingest, and p50/p99 of the 202.

Targets: >= 20 turns/s on 2 cores; 202 p99 <= 30 ms. `make bench`; `--turns N` to change size.
"""

import argparse
import random
import sys
import time

from common import celery_worker, percentile, report, setup_django, throwaway_database

setup_django()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Workspace  # noqa: E402
from apps.accounts.services import apikey_issue  # noqa: E402
from apps.memories.models import Ingest  # noqa: E402
from memoryadmin.warmup import warm_up  # noqa: E402

USER_LINES = [
    "我不吃辣，微辣也不行。",
    "以后报告都用中文。",
    "I prefer short answers with code.",
    "我们用的是 PostgreSQL 16。",
    "I'm a backend engineer at a logistics company.",
    "我想学日语，明年考 N2。",
    "My editor is Neovim.",
    "这种菜如果少放点辣椒会不会好吃？",
    "Can you remind me what I said about tea?",
    "我在杭州工作。",
    "I don't drink coffee after 3pm.",
    "下个月去上海出差。",
]
ASSISTANT_LINES = ["好的，已记下。", "退款已提交，订单号 8812。", "Deployed v2.3.1 to production.", "Sure!", ""]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    setup_test_environment()
    rng = random.Random(11)
    with throwaway_database():
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        _, raw_key = apikey_issue(
            agent=Agent.objects.create(workspace=workspace, name="Bench Bot"), scopes=["read", "write"]
        )
        with celery_worker(args.concurrency):
            client = Client(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
            client.post(
                "/api/v1/subjects/warm/turns",
                {"turn_id": "w", "user_message": "我不吃辣"},
                content_type="application/json",
            )  # warms redaction and the broker connection
            warm_up()  # as a web process does when it starts (models loaded, then gc.freeze())
            time.sleep(5)  # the worker loads the embedding model
            started, accepted = time.perf_counter(), []
            for n in tqdm(range(args.turns), desc="POST turns", unit="turn"):
                body = {
                    "turn_id": f"t-{n}",
                    "session_id": f"s-{n // 10}",
                    "user_message": " ".join(rng.sample(USER_LINES, 2)),
                    "assistant_message": rng.choice(ASSISTANT_LINES),
                }
                t0 = time.perf_counter()
                response = client.post(f"/api/v1/subjects/u{n % 50}/turns", body, content_type="application/json")
                accepted.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 202, response.content
            with tqdm(total=args.turns + 1, desc="processed", unit="turn") as bar:
                while (done := Ingest.objects.filter(status__in=["done", "failed"]).count()) < args.turns + 1:
                    bar.update(done - bar.n)
                    time.sleep(0.2)
                bar.update(done - bar.n)
            elapsed = time.perf_counter() - started
            failed = Ingest.objects.filter(status="failed").count()
    rate = args.turns / elapsed
    print(
        f"turns end to end: {args.turns} turns in {elapsed:.1f} s = {rate:.1f} turns/s "
        f"(worker concurrency {args.concurrency}; failed {failed}) | target >= 20 turns/s: "
        f"{'PASS' if rate >= 20 and not failed else 'MISS'}"
    )
    report("POST /turns → 202", accepted, "p99 <= 30 ms", percentile(accepted, 99) <= 30)
    print("slowest:", sorted(((round(ms, 1), n) for n, ms in enumerate(accepted)), reverse=True)[:6])


if __name__ == "__main__":
    sys.exit(main())
