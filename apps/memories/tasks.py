"""Celery tasks: take ids, call one service. Enqueued with transaction.on_commit by the services.

Every task is named `<what it does>_task`, so a call site shows that it hands work to a worker.
The services, ingest and webhooks import this module at the top; the tasks import what they run
(ingest, lifecycle, services) inside their bodies, because those modules import this one: that is
the only place in the apps where an import is deferred to break a cycle.
"""

import logging

from celery import shared_task
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from apps.memories.embeddings import store
from apps.memories.extraction.base import ExtractionError
from memoryadmin import metrics

logger = logging.getLogger(__name__)


def enqueue(task, *args, countdown: float | None = None) -> bool:
    """Publish a task (to run `countdown` seconds from now); False (and one warning line) when the
    broker cannot take it. Callers keep enough state (the ingest outbox, missing vectors, pending
    webhook deliveries) for a sweep to publish it again later."""
    try:
        task.delay(*args) if countdown is None else task.apply_async(args, countdown=countdown)
    except (BrokerError, OSError) as error:
        logger.warning("Broker unavailable for %s: %s", task.name, type(error).__name__)
        metrics.BROKER_ERRORS.labels(task.name).inc()
        return False
    return True


@shared_task(ignore_result=True)
def embed_memories_task(memory_ids: list[str]) -> int:
    """Embed freshly written memories (for every live embedding index)."""
    return store.memory_embed(memory_ids=memory_ids)


@shared_task(ignore_result=True)
def embed_missing_task() -> int:
    """The sweep: vectors for memories an earlier embed missed (embedder or broker down)."""
    return store.embed_missing()


@shared_task(bind=True, max_retries=5, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def ingest_turn_task(self, ingest_id: str) -> str:
    """Extract and write the memories of one stored turn. Retried with backoff while the extractor
    (an LLM endpoint) fails; given up as "failed" after the last try. A pool process that dies on
    it (the OOM killer) hands it back to the broker at once instead of leaving it to the outbox
    sweep; a turn that kills its worker every time is failed after ingest.MAX_ATTEMPTS."""
    from apps.memories import ingest

    try:
        return ingest.ingest_process(ingest_id=ingest_id).status
    except ExtractionError as error:
        final = not error.retryable or self.request.retries >= self.max_retries
        if self.request.is_eager or final:
            ingest.ingest_fail(ingest_id=ingest_id, error=str(error))
            return "failed"
        raise self.retry(exc=error, countdown=2**self.request.retries) from None
    except Exception as error:  # a bug, not a passing fault: say so in the ingest status, keep the trace
        logger.exception("Ingest %s failed", ingest_id)
        ingest.ingest_fail(ingest_id=ingest_id, error=f"internal error: {type(error).__name__}")
        return "failed"


@shared_task(ignore_result=True)
def ingest_outbox_flush_task() -> int:
    """Hand the broker the turns it could not take when they arrived."""
    from apps.memories import ingest

    return ingest.outbox_flush()


@shared_task(ignore_result=True)
def lifecycle_run_task() -> dict:
    """Every lifecycle job, in order (beat runs it hourly)."""
    from apps.memories import lifecycle

    now = timezone.now()
    return {name: job(now=now) for name, job in lifecycle.JOBS.items()}


@shared_task(bind=True, ignore_result=True)
def forget_request_finish_task(self, request_id: str) -> int:
    """Erase a portal delete once its undo window has passed (enqueued with that countdown). Early,
    or eager (no worker: it runs at once), it does nothing and the forget-due sweep finishes it."""
    from apps.memories.services import forget_requests_finish

    return forget_requests_finish(request_id=request_id)


@shared_task(ignore_result=True)
def forget_requests_due_task() -> int:
    """The sweep (beat, every 15 s): every delete whose undo window has passed is erased."""
    from apps.memories.services import forget_requests_finish

    return forget_requests_finish()
