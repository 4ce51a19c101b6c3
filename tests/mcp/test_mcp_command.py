"""`manage.py mcp` refuses to start without a usable key, with a message instead of a traceback."""

import os
import subprocess
import sys

import pytest

from tests.mcp.conftest import ROOT, database_url_for_subprocesses

pytestmark = pytest.mark.django_db(transaction=True)


def run_command(*args: str, key: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "MEMORYADMIN_API_KEY"} | {
        "DATABASE_URL": database_url_for_subprocesses()
    }
    if key is not None:
        env["MEMORYADMIN_API_KEY"] = key
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "mcp", *args],
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_refuses_to_start_without_a_key():
    result = run_command()

    assert result.returncode != 0
    assert "MEMORYADMIN_API_KEY" in result.stderr
    assert "Traceback" not in result.stderr


def test_it_refuses_an_invalid_key():
    result = run_command("--api-key", "mk_nope_nope")

    assert result.returncode != 0
    assert "not valid or has been revoked" in result.stderr
    assert "Traceback" not in result.stderr
