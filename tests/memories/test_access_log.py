"""The read log under concurrency: the access-log writers of two server processes recording reads of the
same memories at the same moment (`make load` saw PostgreSQL break a deadlock between them, and the
batch it chose was lost with every read it held)."""

import threading

import pytest
from django.db import connection

from apps.audit.models import AccessLog
from apps.memories.models import Memory
from apps.memories.recall.access import Access, access_write
from tests.factories import fact

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_writers_logging_reads_of_the_same_memories_at_once_lose_no_read(alice, acme):
    memories = [fact(alice, f"k{i}", f"value {i}") for i in range(30)]

    def reads(order: list[Memory], twice: set) -> list[Access]:  # a memory read twice is counted in its own statement
        return [
            Access(workspace_id=acme.pk, agent_id=None, subject_id=alice.pk, memory_id=m.pk, rank=1, score=0.5)
            for m in order
            for _ in range(2 if m in twice else 1)
        ]

    batches = [reads(memories, set(memories[::2])), reads(memories[::-1], set(memories[1::2]))]
    rounds, errors = 20, []
    together = threading.Barrier(2)

    def writer(batch: list[Access]) -> None:
        try:
            for _ in range(rounds):
                together.wait(timeout=20)
                access_write(batch)
        except Exception as error:  # a deadlock the database broke, or the other writer's
            errors.append(error)
            together.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(batch,)) for batch in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert errors == []
    logged = rounds * sum(len(batch) for batch in batches)
    assert AccessLog.objects.count() == logged
    assert sum(Memory.objects.filter(subject=alice).values_list("access_count", flat=True)) == logged
