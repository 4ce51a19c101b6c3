from django.db import migrations


class Migration(migrations.Migration):
    """A 512-d vector is 2,056 bytes, just over PostgreSQL's 2,032-byte TOAST threshold, so it was
    moved out of line and every distance scan paid an extra lookup per row (15.5 → 4–5 ms for a
    9,000-vector subject). Keep rows up to a page inline."""

    dependencies = [("memories", "0004_extractor_version_length")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE memories_memoryembedding SET (toast_tuple_target = 8160)",
            "ALTER TABLE memories_memoryembedding RESET (toast_tuple_target)",
        ),
    ]
