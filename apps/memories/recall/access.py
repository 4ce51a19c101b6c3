"""Who read what: access-log rows, memory hotness and per-recall timings, written off the request
path in batches.

`record()` only appends to an in-process queue; a daemon thread writes everything queued every
RECALL_ACCESS_FLUSH_SECONDS with one bulk insert and one update per distinct count, and the process
writes what is left when it exits (a gunicorn worker stopped by a deploy's SIGTERM). Entries still
queued when a process is killed (SIGKILL) are lost; that is the price of never slowing a recall. With
RECALL_ACCESS_ASYNC=false (the tests) `record()` writes at once.
"""

import atexit
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import F
from django.utils import timezone

from apps.audit.models import AccessLog, RecallStat
from apps.memories.models import Memory

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Access:
    workspace_id: int
    agent_id: int | None
    subject_id: int
    memory_id: uuid.UUID
    rank: int
    score: float


@dataclass(frozen=True)
class Recall:
    workspace_id: int
    agent_id: int | None
    took_ms: float
    results: int
    fallback: str


def access_write(entries: Sequence[Access], recalls: Sequence[Recall] = ()) -> None:
    """One batch: AccessLog rows, access_count/last_accessed_at of each memory read, RecallStat rows."""
    if recalls:
        RecallStat.objects.bulk_create([RecallStat(**vars(recall)) for recall in recalls])
    if not entries:
        return
    now = timezone.now()
    reads = Counter(entry.memory_id for entry in entries)
    by_count: dict[int, list] = {}
    for memory_id, count in reads.items():
        by_count.setdefault(count, []).append(memory_id)
    with transaction.atomic():
        # every row this batch will update, locked first and in one order (by id): two processes' batches
        # touching the same memories then queue one behind the other instead of deadlocking
        existing = set(
            Memory.objects.filter(pk__in=list(reads))
            .order_by("pk")
            .select_for_update(no_key=True)
            .values_list("pk", flat=True)
        )
        AccessLog.objects.bulk_create(
            [
                AccessLog(
                    workspace_id=e.workspace_id,
                    agent_id=e.agent_id,
                    subject_id=e.subject_id,
                    memory_id=e.memory_id,
                    rank=e.rank,
                    score=e.score,
                )
                for e in entries
                if e.memory_id in existing
            ]
        )
        for count, memory_ids in by_count.items():
            Memory.objects.filter(pk__in=memory_ids).update(
                access_count=F("access_count") + count, last_accessed_at=now
            )


class AccessRecorder:
    def __init__(self) -> None:
        self._queue: list[Access] = []
        self._recalls: list[Recall] = []
        self._lock = threading.Lock()
        # Held from taking a batch to having written it: the flush at exit waits for the batch the
        # writer thread is still writing, which the interpreter would otherwise cut off mid-insert.
        self._writing = threading.Lock()
        self._thread: threading.Thread | None = None

    def record(self, entries: list[Access], recall: Recall) -> None:
        if not settings.RECALL_ACCESS_ASYNC:
            access_write(entries, [recall])
            return
        with self._lock:
            self._queue.extend(entries)
            self._recalls.append(recall)
            if self._thread is None or not self._thread.is_alive():
                if self._thread is None:  # once per process: the daemon thread dies with it, unflushed
                    atexit.register(self.flush)
                self._thread = threading.Thread(target=self._run, name="access-log", daemon=True)
                self._thread.start()

    def flush(self) -> int:
        with self._writing:
            with self._lock:
                batch, self._queue = self._queue, []
                recalls, self._recalls = self._recalls, []
            try:
                access_write(batch, recalls)
            except Exception:  # a failed batch must not kill the writer thread
                logger.exception("Writing %d access-log entries failed", len(batch))
                close_old_connections()
            return len(batch) + len(recalls)

    def _run(self) -> None:
        while True:
            time.sleep(settings.RECALL_ACCESS_FLUSH_SECONDS)
            if self.flush():
                # While recalls keep coming this thread keeps its connection like a request does
                # (CONN_MAX_AGE): opening one per flush cost a PostgreSQL backend start every second.
                close_old_connections()
            else:
                connection.close()  # idle: hold nothing


recorder = AccessRecorder()
