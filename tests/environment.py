"""Loaded as a pytest plugin (`-p tests.environment` in pytest.ini) before pytest-django reads the
settings: the tests run with production-like settings and only a throw-away secret."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key")
