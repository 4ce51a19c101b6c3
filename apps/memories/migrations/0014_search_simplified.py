"""Keyword documents are Simplified Chinese since this version (apps/memories/search.py): reindex the memories
whose text reads differently as Simplified, so that a Simplified query finds what was written in Traditional
before. Derived data only — the text, already redacted when it was written, is not touched."""

from django.contrib.postgres.search import SearchVector
from django.db import migrations
from django.db.models import Value

BATCH = 2000


def reindex(apps, schema_editor):
    from apps.memories.extraction.script import as_simplified
    from apps.memories.search import CONFIG, search_document

    Memory = apps.get_model("memories", "Memory")
    changed = [
        (pk, text)
        for pk, text in Memory.objects.order_by().values_list("pk", "text").iterator(chunk_size=BATCH)
        if as_simplified(text) != text
    ]
    for pk, text in changed:
        Memory.objects.filter(pk=pk).update(search=SearchVector(Value(search_document(text)), config=CONFIG))


class Migration(migrations.Migration):
    dependencies = [("memories", "0013_merge_suppressions_and_verbose_names")]

    operations = [migrations.RunPython(reindex, migrations.RunPython.noop)]
