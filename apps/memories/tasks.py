"""Celery tasks: take ids, call one service. Enqueued with transaction.on_commit by the services."""

from celery import shared_task

from apps.memories import vectors


@shared_task(ignore_result=True)
def embed_memories(memory_ids: list[str]) -> int:
    """Embed freshly written memories (for every live embedding index)."""
    return vectors.memory_embed(memory_ids=memory_ids)


@shared_task(ignore_result=True)
def embed_missing() -> int:
    """The sweep: vectors for memories an earlier embed missed (embedder or broker down)."""
    return vectors.embed_missing()
