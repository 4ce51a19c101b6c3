"""Shared bits of the benchmark scripts: Django set-up, a throw-away database, percentiles."""

import os
import statistics
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import memoryadmin  # noqa: E402,F401  (first: it pins BLAS to one thread before numpy loads, as in the app)


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryadmin.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret")
    os.environ.setdefault("HTTPS", "false")  # in-process clients speak plain HTTP
    os.environ.setdefault("API_THROTTLE_READ", "1000000/min")  # measure the app, not the throttle
    os.environ.setdefault("API_THROTTLE_WRITE", "1000000/min")
    os.environ.setdefault("API_THROTTLE_IMPORT", "100000000/min")
    if not os.environ.get("CELERY_BROKER_URL"):
        os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")  # in-process tasks, as before
    import django

    django.setup()


@contextmanager
def throwaway_database():
    """A fresh database (migrated), dropped afterwards, like the test runner's. Its name is the
    process's own, so a benchmark never collides with a test run on the same server."""
    from django.conf import settings
    from django.test.utils import setup_databases, teardown_databases

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"memoryadmin_bench_{os.getpid()}"

    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        yield
    finally:
        teardown_databases(old_config, verbosity=0)


BROKER = "redis://127.0.0.1:6379/14"
ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def celery_worker(concurrency: int, *options: str):
    """A real Celery worker (a separate process, Redis broker) on the throw-away database; this
    process publishes to it instead of running tasks eagerly until the block ends."""
    import redis
    from django.conf import settings

    from memoryadmin.celery import app as celery_app

    database = settings.DATABASES["default"]
    url = f"postgres://{database['USER']}@{quote(database['HOST'], safe='')}/{database['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": BROKER, "SECRET_KEY": "bench", "HTTPS": "false"}
    redis.Redis.from_url(BROKER).flushdb()  # tasks a killed earlier run left behind
    worker = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/celery"),
            "-A",
            "memoryadmin",
            "worker",
            "-c",
            str(concurrency),
            "--loglevel",
            "WARNING",
            "-Q",
            "celery",
            "--without-heartbeat",
            "--without-gossip",
            *options,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    celery_app.conf.update(task_always_eager=False, broker_url=BROKER)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield
    finally:
        worker.terminate()
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            worker.kill()
        redis.Redis.from_url(BROKER).flushdb()  # nothing left for a later run's worker
        celery_app.conf.update(task_always_eager=True, broker_url="memory://")


def report(name: str, samples_ms: list[float], target: str, met: bool) -> None:
    def pct(p: float) -> float:
        return percentile(samples_ms, p)

    print(
        f"{name}: n={len(samples_ms)} p50={pct(50):.2f} ms p95={pct(95):.2f} ms p99={pct(99):.2f} ms "
        f"max={max(samples_ms):.2f} ms mean={statistics.fmean(samples_ms):.2f} ms | target {target}: "
        f"{'PASS' if met else 'MISS'}"
    )


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
