"""CACHE_URL: the API throttles and the writes workers charge to an agent are counted in one Redis
that every process shares. Each process here is a fresh `python` with only its environment set,
as gunicorn workers and Celery workers are."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.broker import redis_available

ROOT = Path(__file__).resolve().parent.parent
CACHE_URL = "redis://127.0.0.1:6379/13"  # a db index no other test or benchmark uses


needs_redis = pytest.mark.skipif(not redis_available(), reason="needs Redis at 127.0.0.1:6379")

# One process: `calls` is a list of ["read"|"write", n] (n throttled requests of one key) or ["charge", n]
# (a worker charging n writes to the key's agent); prints whether each request was let through.
PROCESS = """
import json, sys
from types import SimpleNamespace
import django
django.setup()
from django.conf import settings
from apps.accounts.quota import writes_charge
from apps.api.throttling import throttle_wait
key = SimpleNamespace(prefix="mk_shared", agent_id=7)
allowed = []
for what, n in json.loads(sys.argv[1]):
    if what == "charge":
        writes_charge(agent_id=key.agent_id, count=n)
    else:
        allowed += [throttle_wait(key=key, scope=what) is None for _ in range(n)]
print(json.dumps({"backend": settings.CACHES["default"]["BACKEND"], "allowed": allowed}))
"""


def process(calls: list, **env: str) -> dict:
    base = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "SECRET_KEY": "cache-test",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/nothing",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "API_THROTTLE_READ": "3/min",
        "API_THROTTLE_WRITE": "3/min",
    }
    result = subprocess.run(
        [sys.executable, "-c", PROCESS, json.dumps(calls)],
        cwd=ROOT,
        env=base | env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return {"log": result.stderr, **json.loads(result.stdout.strip().splitlines()[-1])}


@pytest.fixture
def shared_cache():
    redis.Redis.from_url(CACHE_URL).flushdb()
    yield CACHE_URL
    redis.Redis.from_url(CACHE_URL).flushdb()


@needs_redis
def test_two_processes_count_one_keys_requests_against_one_throttle(shared_cache):
    first = process([["read", 2]], CACHE_URL=shared_cache)
    second = process([["read", 2]], CACHE_URL=shared_cache)

    assert first["backend"] == "django.core.cache.backends.redis.RedisCache"
    assert first["allowed"] == [True, True]
    assert second["allowed"] == [True, False]  # 3/min in all, whichever process serves the request


def test_without_cache_url_each_process_counts_alone():
    first = process([["read", 2]])
    second = process([["read", 2]])

    assert first["backend"] == "django.core.cache.backends.locmem.LocMemCache"
    assert (first["allowed"], second["allowed"]) == ([True, True], [True, True])


@needs_redis
def test_writes_a_worker_charges_count_against_the_web_processes_write_throttle(shared_cache):
    process([["charge", 2]], CACHE_URL=shared_cache)  # a Celery worker: a turn became two memories
    web = process([["write", 2]], CACHE_URL=shared_cache)

    assert web["allowed"] == [True, False]


def test_a_cache_that_is_down_lets_requests_through_with_a_warning():
    down = process([["charge", 1], ["read", 4]], CACHE_URL="redis://127.0.0.1:1/0")

    assert down["allowed"] == [True] * 4
    assert "Throttle cache unavailable" in down["log"] and "Quota cache unavailable" in down["log"]


def test_a_cache_url_that_is_not_redis_stops_start_up():
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": os.environ["PATH"],
            "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
            "SECRET_KEY": "x",
            "DATABASE_URL": "postgres://nobody@127.0.0.1:1/nothing",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "CACHE_URL": "memcached://127.0.0.1:11211",
        },
    )

    assert result.returncode != 0 and "CACHE_URL" in result.stderr and "not a Redis URL" in result.stderr
