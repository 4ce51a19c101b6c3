"""How to tell a person what was removed from their text, in their language."""

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

LABELS = {
    "CN_MOBILE": _("a phone number"),
    "PHONE_NUMBER": _("a phone number"),
    "EMAIL_ADDRESS": _("an email address"),
    "CN_RESIDENT_ID": _("an ID card number"),
    "US_SSN": _("a social security number"),
    "CN_BANK_CARD": _("a bank card number"),
    "CREDIT_CARD": _("a card number"),
    "IBAN_CODE": _("a bank account number"),
    "IP_ADDRESS": _("an IP address"),
    "CRYPTO": _("a crypto wallet address"),
    "PERSON": _("a name"),
    "LOCATION": _("a place"),
}


def removed_notice(counts: dict[str, int]) -> str:
    """'A phone number and an email address were removed before saving.' ('' when nothing was)."""
    if not counts:
        return ""
    labels = list(dict.fromkeys(str(LABELS.get(kind, _("personal data"))) for kind in sorted(counts)))
    listed = labels[0] if len(labels) == 1 else format_lazy(_("{} and {}"), ", ".join(labels[:-1]), labels[-1])
    message = ngettext(
        "{what} was removed before saving, to protect your privacy.",
        "{what} were removed before saving, to protect your privacy.",
        sum(counts.values()),
    )
    text = message.format(what=listed)
    return text[:1].upper() + text[1:]
