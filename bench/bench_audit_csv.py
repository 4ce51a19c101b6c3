"""Streaming CSV export of a 1,000,000-row audit log: time to first byte, total time, rows/s and
peak memory of the process. `make bench`; `--rows N` for a quicker run."""

import argparse
import json
import resource
import time

from common import setup_django, throwaway_database

setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Membership, Subject, Workspace  # noqa: E402


def load(workspace: Workspace, subject: Subject, rows: int) -> None:
    actions = ["memory.created", "memory.superseded", "memory.corrected", "memory.pinned", "memory.reaffirmed"]
    with connection.cursor() as cursor, cursor.connection.cursor() as raw:
        with raw.copy(
            "COPY audit_auditevent (workspace_id, actor_type, actor_id, actor_name, action, subject_id, "
            "before, after, reason, request_id, created_at) FROM STDIN"
        ) as copy:
            for n in tqdm(range(rows), desc="COPY audit events", unit="row", unit_scale=True):
                after = json.dumps({"key": f"k{n % 97}", "value": f"value {n} 喜欢喝茶", "version": 1 + n % 3})
                copy.write_row(
                    (
                        workspace.pk,
                        "agent",
                        "7",
                        "Support Bot",
                        actions[n % 5],
                        subject.pk,
                        "{}",
                        after,
                        "",
                        f"req-{n}",
                        "2026-11-01T00:00:00Z",
                    )
                )
        cursor.execute("ANALYZE audit_auditevent")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    rows = parser.parse_args().rows
    setup_test_environment()  # lets the test client talk to the app in-process
    with throwaway_database():
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        subject = Subject.objects.create(workspace=workspace, external_id="alice")
        user = get_user_model().objects.create_user("operator")
        Membership.objects.create(workspace=workspace, user=user, role="operator")
        load(workspace, subject, rows)

        client = Client()
        client.force_login(user)
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        response = client.get("/console/audit.csv")
        chunks = iter(response.streaming_content)
        first = next(chunks)
        first_byte = time.perf_counter() - started
        size, lines = len(first), 1
        for chunk in tqdm(chunks, total=rows, desc="stream CSV", unit="row", unit_scale=True):
            size += len(chunk)
            lines += 1
        total = time.perf_counter() - started
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"audit CSV export: {lines - 1:,} rows, {size / 1e6:.0f} MB in {total:.1f} s "
        f"({(lines - 1) / total:,.0f} rows/s); first byte after {first_byte * 1000:.0f} ms; "
        f"peak RSS grew {(rss_after - rss_before) / 1024:.0f} MB while streaming"
    )


if __name__ == "__main__":
    main()
