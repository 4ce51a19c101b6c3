"""Batch import, shared by `POST /subjects/{id}/memories:batch` and `manage.py import_memories`:
each item validated by the same serializers as single writes, then written by
`apps.memories.imports.memories_import`; results and refusals in the API's shapes."""

from collections.abc import Sequence

from rest_framework import exceptions, status

from apps.accounts.models import external_id_error
from apps.api.exceptions import api_exception_handler
from apps.api.serializers import BATCH_ITEM_SERIALIZERS
from apps.memories.imports import ImportItem, ImportOutcome
from apps.memories.services import Outcome
from apps.privacy.identifiers import PIIInIdentifier, refuse_pii_in_identifiers

IDENTIFIERS = ("session_id", "turn_id", "client_id")


def item_from(raw, *, external_id: str) -> ImportItem | Exception:
    """The validated item, or the error that refuses it (never raised: every item gets its verdict)."""
    if not isinstance(raw, dict):
        return exceptions.ValidationError({"non_field_errors": ["Each item must be a JSON object."]})
    kind = raw.get("type")
    serializer_class = BATCH_ITEM_SERIALIZERS.get(kind) if isinstance(kind, str) else None
    if serializer_class is None:
        return exceptions.ValidationError({"type": [f"Must be one of: {', '.join(BATCH_ITEM_SERIALIZERS)}."]})
    serializer = serializer_class(data=raw)
    if not serializer.is_valid():
        return exceptions.ValidationError(serializer.errors)
    data = dict(serializer.validated_data)
    try:
        refuse_pii_in_identifiers(**{name: data[name] for name in IDENTIFIERS})
    except PIIInIdentifier as error:
        return error
    return ImportItem(external_id=external_id, type=data.pop("type"), client_id=data.pop("client_id"), fields=data)


def subject_error(external_id: str) -> Exception | None:
    """Why `external_id` cannot name a subject (the path's id is checked by the view itself)."""
    if error := external_id_error(external_id):
        return exceptions.ValidationError({"subject": [error]})
    try:
        refuse_pii_in_identifiers(subject=external_id)
    except PIIInIdentifier as refused:
        return refused
    return None


def refusal(error: Exception) -> tuple[int, dict]:
    """The HTTP status and the `error` body the API gives for `error`."""
    response = api_exception_handler(error, {})
    assert response is not None, error  # every refusal a batch item can meet has an API answer
    return response.status_code, response.data["error"]


def item_result(index: int, outcome: ImportOutcome) -> dict:
    if outcome.error is not None:
        code, body = refusal(outcome.error)
        return {"index": index, "status": code, "client_id": outcome.item.client_id, "error": body}
    result = outcome.result
    assert result is not None  # an outcome has a result or an error
    first = result.first_outcome or result.outcome
    written = first in (Outcome.CREATED, Outcome.SUPERSEDED) and result.outcome != Outcome.REPLAYED
    return {
        "index": index,
        "status": status.HTTP_201_CREATED if written else status.HTTP_200_OK,
        "client_id": outcome.item.client_id,
        "id": str(result.memory.id),
        "outcome": first,
        "version": result.memory.version,
        "redacted": result.redactions,
        "replayed": result.outcome == Outcome.REPLAYED,
    }


def rejection(refused: Sequence[dict], total: int) -> tuple[int, dict]:
    """One answer for a batch that wrote nothing: 400 when any item is invalid, else the status and
    code of the first refusal; `fields.items` maps each refused index to its field errors."""
    statuses = [item["status"] for item in refused]
    code = status.HTTP_400_BAD_REQUEST if status.HTTP_400_BAD_REQUEST in statuses else statuses[0]
    first = refused[0]["error"]
    return code, {
        "error": {
            "code": "invalid" if code == status.HTTP_400_BAD_REQUEST else first["code"],
            "message": f"{len(refused)} of {total} items were refused; nothing was written.",
            "fields": {
                "items": {
                    str(item["index"]): item["error"]["fields"] or {"non_field_errors": [item["error"]["message"]]}
                    for item in refused
                }
            },
            "items": list(refused),
        }
    }
