"""Database helpers shared by the apps."""

import functools
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from psycopg.pq import Format

M = TypeVar("M", bound=Model)


@contextmanager
def unsynced_commit():
    """A transaction whose commit does not wait for the disk (synchronous_commit off): for notes that
    may be lost in a server crash without harm (progress, hints). Still atomic and never corrupt; a
    crash loses at most the last fraction of a second of such commits. Inside another transaction it
    is a plain savepoint: the outer commit stays durable."""
    with transaction.atomic():
        if not connection.savepoint_ids:  # the outermost block: its commit is this transaction's
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


def fetch_row(sql: str, params: Sequence) -> tuple | None:
    """The first row of a hand-written statement, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def columns(model: type[Model], alias: str) -> str:
    """Every column of `model` as `alias."column", …`, in the order `instance` reads them back."""
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


@functools.cache
def _readers(model: type[Model]) -> tuple[list[str], list[tuple[int, Callable]]]:
    """The model's attnames, and the fields (by position) whose values the ORM converts on reading
    (`from_db_value`: JSON, say)."""
    fields = model._meta.concrete_fields
    converted = [(i, field.from_db_value) for i, field in enumerate(fields) if hasattr(field, "from_db_value")]
    return [field.attname for field in fields], converted


def instance(model: type[M], row: Sequence, start: int = 0) -> M:
    """The instance of `model` whose columns `row` holds from `start` on (as `columns` selected them),
    built as the ORM builds it. For the few reads every API request makes, written by hand: building
    and compiling their querysets cost more CPU than PostgreSQL spends answering them."""
    attnames, converted = _readers(model)
    values = list(row[start : start + len(attnames)])
    for i, convert in converted:
        values[i] = convert(values[i], None, connection)
    return model.from_db(connection.alias, attnames, values)


class _PreparedCursor(psycopg.Cursor):
    """Prepares each statement on the server the first time it runs on its connection."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)


@contextmanager
def binary_cursor(*, prepared: bool = False):
    """A cursor whose parameters are bound by the server and whose results come in PostgreSQL's
    binary format: bytea (a stored vector) arrives as its bytes instead of twice as many hex digits,
    and no parameter is quoted into the statement. Wrapped like `connection.cursor()` (execute
    wrappers, query logging and counting); its timestamps carry the same UTC time zone.

    `prepared` (for a statement every request runs, unless DB_PREPARED_STATEMENTS is off): the
    statement is prepared on the server the first time it runs on a connection, so PostgreSQL
    plans it once and reuses the plan while a generic plan is as good as a fresh one (recall's
    candidates statement spent as long being planned as being run). Django turns psycopg's
    automatic preparing off; only statements run here are prepared."""
    connection.ensure_connection()
    pg = connection.connection
    prepared = prepared and settings.DB_PREPARED_STATEMENTS
    if prepared and pg.prepare_threshold is None:
        pg.prepare_threshold = 2**31 - 1  # on: statements prepared when asked, none by count
    cursor_class = _PreparedCursor if prepared else psycopg.Cursor
    raw: Any = cursor_class(pg)  # the stubs take Django's wrapper for the raw cursor
    raw.format = Format.BINARY
    wrapped = connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)
    with wrapped as cursor:
        yield cursor
