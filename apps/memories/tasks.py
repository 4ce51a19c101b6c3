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


@shared_task(bind=True, max_retries=5, acks_late=True, ignore_result=True)
def ingest_turn(self, ingest_id: str) -> str:
    """Extract and write the memories of one stored turn. Retried with backoff while the extractor
    (an LLM endpoint) fails; given up as "failed" after the last try."""
    from apps.memories import ingest
    from apps.memories.extraction.base import ExtractionError

    try:
        return ingest.ingest_process(ingest_id=ingest_id).status
    except ExtractionError as error:
        final = not getattr(error, "retryable", True) or self.request.retries >= self.max_retries
        if self.request.is_eager or final:
            ingest.ingest_fail(ingest_id=ingest_id, error=str(error))
            return "failed"
        raise self.retry(exc=error, countdown=2 ** self.request.retries) from None


@shared_task(ignore_result=True)
def ingest_outbox_flush() -> int:
    """Hand the broker the turns it could not take when they arrived."""
    from apps.memories import ingest

    return ingest.outbox_flush()


@shared_task(ignore_result=True)
def lifecycle_run() -> dict:
    """Every lifecycle job, in order (beat runs it hourly)."""
    from django.utils import timezone

    from apps.memories import lifecycle

    now = timezone.now()
    return {name: job(now=now) for name, job in lifecycle.JOBS.items()}
