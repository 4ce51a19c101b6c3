"""manage.py import_memories FILE.jsonl --workspace S [--atomic]

One JSON object per line: `subject` (the external id) plus the fields of a batch item
(`type` fact|episode, ...). Lines are validated like the API's batch items and written through the
same service, in chunks of 500 (each its own transaction), or all in one with --atomic."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from rest_framework import exceptions
from tqdm import tqdm

from apps.accounts import selectors
from apps.api import batch
from apps.api.serializers import BATCH_MAX_ITEMS
from apps.audit.services import Actor
from apps.memories.imports import ImportItem, memories_import
from apps.memories.services import Outcome


class Command(BaseCommand):
    help = "Import facts and episodes from a JSON Lines file (one object with `subject` and item fields a line)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="Path of the .jsonl file ('-' for stdin).")
        parser.add_argument("--workspace", required=True, help="Workspace slug.")
        parser.add_argument(
            "--atomic",
            action="store_true",
            help="All or nothing: one bad line and nothing is written (default: the good lines are).",
        )

    def handle(self, *args, file: str, workspace: str, atomic: bool, **options) -> None:
        found = selectors.workspace_by_slug(slug=workspace)
        if found is None:
            raise CommandError(f"No workspace with slug {workspace!r}.")
        try:
            stream = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115 (closed by the with below)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        with stream:
            lines = [(number, line) for number, line in enumerate(stream, start=1) if line.strip()]
        items, errors = self._check(lines)
        if errors and atomic:
            raise CommandError(f"{len(errors)} of {len(lines)} lines are invalid; nothing was written.")

        actor, counts = Actor.system("manage.py import_memories"), {"written": 0, "unchanged": 0, "replayed": 0}
        chunks = [items] if atomic else [items[i : i + BATCH_MAX_ITEMS] for i in range(0, len(items), BATCH_MAX_ITEMS)]
        with tqdm(total=len(lines), initial=len(errors), unit="line", file=sys.stderr, desc="import") as progress:
            for chunk in chunks:
                outcomes = memories_import(
                    workspace=found, items=[item for _, item in chunk], actor=actor, atomic=atomic
                )
                for (number, _item), outcome in zip(chunk, outcomes, strict=True):
                    if outcome.error is not None:
                        errors.append(number)
                        self._report(number, outcome.error)
                    elif outcome.result is not None:
                        counts[_count_as(outcome.result)] += 1
                progress.update(len(chunk))
        if errors:
            if atomic:
                raise CommandError(f"{len(errors)} of {len(lines)} lines were refused; nothing was written.")
            raise CommandError(
                f"{len(errors)} of {len(lines)} lines were not imported (see above); "
                f"{counts['written']} written. Fix them and run again: lines with a client_id are "
                "not written twice."
            )
        self.stdout.write(
            f"{len(lines)} lines: {counts['written']} written, {counts['unchanged']} unchanged, "
            f"{counts['replayed']} already imported."
        )

    def _check(self, lines: list[tuple[int, str]]) -> tuple[list[tuple[int, ImportItem]], list[int]]:
        items: list[tuple[int, ImportItem]] = []
        errors: list[int] = []
        subjects: dict[str, Exception | None] = {}
        for number, line in lines:
            item = self._item(line, subjects)
            if isinstance(item, Exception):
                errors.append(number)
                self._report(number, item)
            else:
                items.append((number, item))
        return items, errors

    def _item(self, line: str, subjects: dict) -> ImportItem | Exception:
        try:
            raw = json.loads(line)
        except ValueError as error:
            return exceptions.ParseError(f"The line is not valid JSON: {error}")
        external_id = raw.get("subject") if isinstance(raw, dict) else None
        if not isinstance(external_id, str):
            return exceptions.ValidationError({"subject": ["Each line needs the subject's id (a string)."]})
        if external_id not in subjects:
            subjects[external_id] = batch.subject_error(external_id)
        return subjects[external_id] or batch.item_from(raw, external_id=external_id)

    def _report(self, number: int, error: Exception) -> None:
        _status, body = batch.refusal(error)
        fields = "; ".join(
            f"{name}: {' '.join(map(str, messages)) if isinstance(messages, list) else messages}"
            for name, messages in body["fields"].items()
        )
        self.stderr.write(f"line {number}: {fields or body['message']}")


def _count_as(result) -> str:
    if result.outcome == Outcome.REPLAYED:
        return "replayed"
    return "written" if result.outcome in (Outcome.CREATED, Outcome.SUPERSEDED) else "unchanged"
