import pytest
from django.core.exceptions import ImproperlyConfigured

from memoryadmin.settings import env_bool, env_float, env_int, env_list, env_str


def test_helpers_read_typed_values(monkeypatch):
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_FLOAT", "0.25")
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert (env_bool("X_BOOL", False), env_int("X_INT", 0), env_float("X_FLOAT", 0, low=0, high=1)) == (True, 42, 0.25)
    assert env_list("X_LIST", []) == ["a", "b", "c"]
    assert env_str("X_UNSET_STR", "fallback") == "fallback"


@pytest.mark.parametrize(
    "value, read",
    [
        ("maybe", lambda: env_bool("X_BAD", False)),
        ("4.5", lambda: env_int("X_BAD", 0)),
        ("-1", lambda: env_int("X_BAD", 0, minimum=0)),
        ("lots", lambda: env_float("X_BAD", 0, low=0, high=1)),
        ("1.5", lambda: env_float("X_BAD", 0, low=0, high=1)),
    ],
)
def test_helpers_fail_loudly_on_bad_values_naming_the_variable(monkeypatch, value, read):
    monkeypatch.setenv("X_BAD", value)
    with pytest.raises(ImproperlyConfigured, match="X_BAD"):
        read()


def test_a_required_variable_must_be_set(monkeypatch):
    monkeypatch.delenv("X_REQUIRED", raising=False)
    with pytest.raises(ImproperlyConfigured, match="X_REQUIRED is required"):
        env_str("X_REQUIRED")


# --- settings as a fresh process reads them --------------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FAKE_DATABASE = "postgres://nobody@127.0.0.1:1/nothing"  # parsed, never connected to


def settings_of(*argv: str, **env: str) -> dict:
    """The settings a process started as `manage.py <argv>` reads, with only `env` set beyond PATH."""
    code = (
        "import json, sys; sys.argv = json.loads(sys.argv[1]); from django.conf import settings; "
        "print(json.dumps({'conn_max_age': settings.DATABASES['default']['CONN_MAX_AGE'], "
        "'eager': settings.CELERY_TASK_ALWAYS_EAGER, 'broker': settings.CELERY_BROKER_URL}))"
    )
    base = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "DATABASE_URL": FAKE_DATABASE,
        "SECRET_KEY": "settings-test-secret",
    }
    result = subprocess.run(
        [sys.executable, "-c", code, json.dumps(["manage.py", *argv])],
        cwd=ROOT,
        env=base | env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode:
        return {"error": result.stderr}
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_runserver_does_not_keep_a_database_connection_per_request_thread():
    assert settings_of("runserver", DEBUG="true")["conn_max_age"] == 0


def test_other_processes_keep_their_connections_for_a_minute():
    assert settings_of("migrate", DEBUG="true")["conn_max_age"] == 60
    assert settings_of("runserver", DEBUG="true", DB_CONN_MAX_AGE="30")["conn_max_age"] == 0
    assert (
        settings_of("shell", DB_CONN_MAX_AGE="30", CELERY_BROKER_URL="redis://127.0.0.1:6379/0")["conn_max_age"] == 30
    )


def test_without_a_broker_make_run_runs_tasks_in_process():
    assert settings_of("runserver", DEBUG="true")["eager"] is True


def test_a_production_start_without_a_broker_stops_with_a_clear_message():
    error = settings_of("migrate")["error"]

    assert "ImproperlyConfigured" in error and "CELERY_BROKER_URL" in error and "CELERY_TASK_ALWAYS_EAGER" in error


def test_a_production_start_with_a_broker_publishes_tasks_to_it():
    read = settings_of("migrate", CELERY_BROKER_URL="redis://127.0.0.1:6379/0")

    assert (read["eager"], read["broker"]) == (False, "redis://127.0.0.1:6379/0")


def test_a_single_process_deployment_may_ask_for_in_process_tasks_explicitly():
    assert settings_of("migrate", CELERY_TASK_ALWAYS_EAGER="true")["eager"] is True


def test_the_tests_run_tasks_in_process(settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
