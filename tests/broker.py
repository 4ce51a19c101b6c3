"""Pointing the Celery app at another broker inside a test run, and a real worker on Redis."""

import socket

import pytest
from celery.contrib.testing.worker import start_worker

from memoryadmin.celery import app as celery_app


def redis_available() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


BROKER = "redis://127.0.0.1:6379/15" if redis_available() else "memory://"


def switch_broker(url: str, *, eager: bool) -> None:
    """Point Celery at `url`. Celery builds its broker connection and producer pools on first use
    and keeps them when broker_url changes; they are dropped so the next publish really uses `url`.
    (Not closed: kombu's registry hands the same pool out again for the same URL.)"""
    celery_app.conf.update(task_always_eager=eager, broker_url=url, result_backend=None)
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def real_worker(settings):
    """A Celery worker thread on the real broker, with eager mode off."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    switch_broker(BROKER, eager=False)
    with start_worker(celery_app, pool="threads", perform_ping_check=False, shutdown_timeout=10):
        yield
    switch_broker("memory://", eager=True)
