"""Identifier fields are opaque handles: personal data in them is refused, never redacted.

An external id, session id, turn id, Idempotency-Key, X-Request-ID, agent name or workspace slug
is how rows are found again, so a redacted copy would be useless (and two people would collide on
"<CN_MOBILE>"). A value in which the redaction gate finds anything cannot be one:

    >>> identifier_refusal("13812345678")
    ['This holds personal data (a phone number); use an opaque id instead, ...']
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from apps.privacy.labels import LABELS
from apps.privacy.redaction import PIIRejected, redact


def _entity_types(value: str) -> list[str]:
    try:
        return sorted({finding.entity_type for finding in redact(value).findings})
    except PIIRejected as rejected:  # a type the policy rejects outright is personal data all the same
        return rejected.entity_types


def _refusal(kinds: list[str]) -> list[str]:
    if not kinds:
        return []
    what = ", ".join(dict.fromkeys(str(LABELS.get(kind, _("personal data"))) for kind in kinds))
    return [
        _(
            "This holds personal data (%(what)s); use an opaque id instead, such as a random id or your "
            "own database key, never a phone number, e-mail address or ID number."
        )
        % {"what": what}
    ]


def identifier_refusal(value: str) -> list[str]:
    """Why `value` cannot be an identifier ([] when it can). Never repeats the value."""
    return _refusal(_entity_types(value)) if value else []


class PIIInIdentifier(ValidationError):
    """Identifier fields that hold personal data (API: 422 `pii_in_identifier`). Being a
    ValidationError, forms and commands that show validation errors show it too."""

    def __init__(self, fields: dict[str, list[str]], entity_types: list[str]) -> None:
        super().__init__(fields, code="pii_in_identifier")
        self.entity_types = entity_types


def refuse_pii_in_identifiers(**values: str) -> None:
    """Raise PIIInIdentifier naming every field (keyword) whose value holds personal data."""
    fields, kinds = {}, set()
    for name, value in values.items():
        if value and (found := _entity_types(value)):
            fields[name] = _refusal(found)
            kinds.update(found)
    if fields:
        raise PIIInIdentifier(fields, sorted(kinds))
