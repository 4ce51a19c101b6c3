"""Shared bits of the benchmark scripts: Django set-up, a throw-away database, a Celery worker,
the machine's CPU pressure, percentiles."""

import os
import statistics
import subprocess
import sys
import time
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
    """A fresh database (migrated), dropped afterwards, like the test runner's; yields its name. The
    name is the process's own, so a benchmark never collides with a test run on the same server.
    Sessions still open on it at the end (a server's workers, a background thread's connection)
    are ended first, or DROP DATABASE would wait for them."""
    from django.conf import settings
    from django.db import connection, connections
    from django.test.utils import setup_databases, teardown_databases

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"memoryadmin_bench_{os.getpid()}"

    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        yield connection.settings_dict["NAME"]
    finally:
        connections.close_all()
        terminate_sessions()
        teardown_databases(old_config, verbosity=0)


def raw_params(dbname: str | None = None) -> dict:
    """psycopg.connect() arguments for `dbname` (default: the database Django uses) on Django's server."""
    from django.db import connection

    s = connection.settings_dict
    params = {"dbname": dbname or s["NAME"], "user": s["USER"], "host": s["HOST"]}
    params.update({k.lower(): s[k] for k in ("PASSWORD", "PORT") if s.get(k)})
    return params


def terminate_sessions() -> None:
    """End every other session on the database Django uses (connecting to `postgres` to do it)."""
    import psycopg
    from django.db import connection

    name = connection.settings_dict["NAME"]
    try:
        with psycopg.connect(**raw_params("postgres"), autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
    except psycopg.Error as error:
        print(f"could not end the sessions on {name}: {error}", file=sys.stderr)


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


def _pressure() -> tuple[float, float] | None:
    """'some' CPU pressure (PSI) over the last 10 s and 60 s: the share of time runnable tasks waited for a CPU."""
    try:
        with open("/proc/pressure/cpu") as psi:
            fields = dict(f.split("=") for f in psi.readline().split()[1:3])
        return float(fields["avg10"]), float(fields["avg60"])
    except (OSError, ValueError, KeyError):
        return None


def cpu_pressure() -> str:
    pressure = _pressure()
    if pressure is None:
        return "load avg " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"CPU pressure {pressure[0]:.0f}%/{pressure[1]:.0f}% over 10s/60s"


def wait_for_quiet(max_seconds: float, threshold: float = 20.0) -> float:
    """Wait (up to max_seconds) until the CPU pressure over 10 s is below threshold %; returns the wait."""
    started = time.perf_counter()
    while time.perf_counter() - started < max_seconds:
        pressure = _pressure()
        if pressure is None or pressure[0] < threshold:
            break
        time.sleep(2)
    return time.perf_counter() - started


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
