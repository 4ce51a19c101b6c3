"""Look for a string in every text and JSON column of every table, with SQL (not through the ORM)."""

from django.db import connection


def columns_containing(needle: str) -> list[str]:
    """`table.column` of every column in the public schema whose value contains `needle`."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public'
              AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'tsvector')
            """
        )
        columns = cursor.fetchall()
        hits = []
        for table, column in columns:
            cursor.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}" WHERE "{column}"::text LIKE %s)', [f"%{needle}%"])
            if cursor.fetchone()[0]:
                hits.append(f"{table}.{column}")
        return hits
