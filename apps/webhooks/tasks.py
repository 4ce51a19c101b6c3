"""Celery tasks of webhooks: take an id, call one service. The delivery module is imported inside
each task: it reaches this module through the audit trail (delivery → audit.services → events →
tasks), see apps/memories/tasks.py."""

from celery import Task, shared_task

from apps.memories.tasks import enqueue


@shared_task(bind=True, acks_late=True, ignore_result=True)
def webhook_deliver_task(self: Task, delivery_id: int) -> None:
    """One attempt; a failure that has attempts left is retried after its backoff (with a broker;
    in-process tasks leave the retry to the webhook_retry_due_task sweep instead of sleeping)."""
    from apps.webhooks.delivery import deliver

    retry_in = deliver(delivery_id=delivery_id)
    if retry_in is not None and not self.request.is_eager:
        enqueue(webhook_deliver_task, delivery_id, countdown=retry_in)


@shared_task(ignore_result=True)
def webhook_retry_due_task() -> int:
    """The sweep (beat): deliveries that are due and not on their way."""
    from apps.webhooks.delivery import retry_due

    return retry_due()
