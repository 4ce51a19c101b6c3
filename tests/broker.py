"""Pointing the Celery app at another broker inside a test run."""

from memoryadmin.celery import app as celery_app


def switch_broker(url: str, *, eager: bool) -> None:
    """Point Celery at `url`. Celery builds its broker connection and producer pools on first use
    and keeps them when broker_url changes; they are dropped so the next publish really uses `url`.
    (Not closed: kombu's registry hands the same pool out again for the same URL.)"""
    celery_app.conf.update(task_always_eager=eager, broker_url=url, result_backend=None)
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
