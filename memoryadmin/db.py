"""Database helpers shared by the apps."""

from contextlib import contextmanager

from django.db import connection, transaction


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
