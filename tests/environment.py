"""Loaded as a pytest plugin (`-p tests.environment` in pytest.ini) before pytest-django reads the
settings: the tests run with production-like settings and only a throw-away secret."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key")
# Generous API rates: the fuzzing tests send hundreds of requests a minute with one key.
# (The throttling test sets its own low rates.)
os.environ.setdefault("API_THROTTLE_READ", "100000/min")
os.environ.setdefault("API_THROTTLE_WRITE", "100000/min")
os.environ.setdefault("API_THROTTLE_IMPORT", "10000000/min")
# Recalls write their access log at once in tests (one test covers the background writer).
os.environ.setdefault("RECALL_ACCESS_ASYNC", "false")
# The test servers speak plain HTTP (production defaults to HTTPS when DEBUG is off).
os.environ.setdefault("HTTPS", "false")
# Each test run gets its own throw-away database, so two runs on one machine never collide.
os.environ.setdefault("TEST_DATABASE_NAME", f"test_memoryadmin_{os.getpid()}")
# A loaded CI machine must not turn slow query embeddings into keyword fallbacks; the fault tests
# set a short time-out themselves.
os.environ.setdefault("RECALL_EMBED_TIMEOUT", "5")
# Celery tasks run in the test process unless a test points Celery at a broker itself (production
# refuses to start without a broker or this explicit switch).
if not os.environ.get("CELERY_BROKER_URL"):
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
