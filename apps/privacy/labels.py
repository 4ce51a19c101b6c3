"""How to tell a person what was removed from their text, in their language: a notice after a
write ("A phone number was removed before saving") and, where stored text is shown, each typed
placeholder such as <CN_MOBILE> as a readable token ("📱 phone number (hidden)")."""

import re

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

LABELS = {
    "CN_MOBILE": _("a phone number"),
    "PHONE_NUMBER": _("a phone number"),
    "EMAIL_ADDRESS": _("an email address"),
    "CN_RESIDENT_ID": _("an ID card number"),
    "HK_ID": _("a Hong Kong ID card number"),
    "TW_ID": _("a Taiwan ID card number"),
    "CN_PASSPORT": _("a passport number"),
    "US_SSN": _("a social security number"),
    "UK_NINO": _("a National Insurance number"),
    "ID_NUMBER": _("an ID number"),
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


# Entity type → (icon, label) of the token shown in place of its placeholder.
TOKEN_LABELS = {
    "CN_MOBILE": ("📱", pgettext_lazy("mobile", "phone number (hidden)")),
    "PHONE_NUMBER": ("📞", _("phone number (hidden)")),
    "EMAIL_ADDRESS": ("✉️", _("email address (hidden)")),
    "CN_RESIDENT_ID": ("🪪", _("ID card number (hidden)")),
    "HK_ID": ("🪪", _("Hong Kong ID card number (hidden)")),
    "TW_ID": ("🪪", _("Taiwan ID card number (hidden)")),
    "CN_PASSPORT": ("🛂", _("passport number (hidden)")),
    "US_SSN": ("🪪", _("social security number (hidden)")),
    "UK_NINO": ("🪪", _("National Insurance number (hidden)")),
    "ID_NUMBER": ("🪪", _("ID number (hidden)")),
    "CN_BANK_CARD": ("💳", _("bank card number (hidden)")),
    "CREDIT_CARD": ("💳", _("card number (hidden)")),
    "IBAN_CODE": ("🏦", _("bank account number (hidden)")),
    "IP_ADDRESS": ("🌐", _("IP address (hidden)")),
    "CRYPTO": ("🪙", _("crypto wallet address (hidden)")),
    "PERSON": ("👤", _("name (hidden)")),
    "LOCATION": ("📍", _("place (hidden)")),
}
GENERIC_TOKEN = ("🔒", _("personal data (hidden)"))

# What the gate writes: "<" + an entity type + ">". Three characters at least, so that "<T>" in a
# memory about generics stays text.
PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]{2,})>")


def token_html(entity_type: str) -> SafeString:
    icon, label = TOKEN_LABELS.get(entity_type, GENERIC_TOKEN)
    return format_html(
        '<span class="pii-token" data-entity="{}" title="{}"><span aria-hidden="true">{}</span> {}</span>',
        entity_type,
        _("Removed before saving, to protect privacy."),
        icon,
        label,
    )


def placeholders_html(text: str) -> SafeString:
    """`text` escaped, with each placeholder shown as its token."""
    parts, last = [], 0
    for match in PLACEHOLDER.finditer(text):
        parts += [conditional_escape(text[last : match.start()]), token_html(match.group(1))]
        last = match.end()
    parts.append(conditional_escape(text[last:]))
    return mark_safe("".join(parts))


def token_label(entity_type: str) -> str:
    return str(TOKEN_LABELS.get(entity_type, GENERIC_TOKEN)[1])


def placeholders_text(text: str) -> str:
    """`text` with each placeholder as its label, as plain text (an accessible name, a title)."""
    return PLACEHOLDER.sub(lambda match: token_label(match.group(1)), text)


# The correction box shows each placeholder as ⟦label⟧ (without JavaScript, in the textarea) or as a
# read-only token (with it, serialized the same way); what comes back is turned into placeholders again.
MARK_OPEN, MARK_CLOSE = "⟦", "⟧"
MARK = re.compile(r"⟦([^⟦⟧]{1,80})⟧")


def placeholders_marked(text: str) -> str:
    """Stored text for the correction box: each placeholder as ⟦its label⟧, never as a code."""
    return PLACEHOLDER.sub(lambda match: f"{MARK_OPEN}{token_label(match.group(1))}{MARK_CLOSE}", text)


def placeholders_restored(edited: str, original: str) -> str:
    """The person's corrected text with each ⟦label⟧ they kept turned back into the placeholder it
    stood for in `original` (the stored, redacted text): no more of each type than `original` had;
    a mark that names nothing there is dropped. The server never had the value, only the code."""
    from django.utils import translation

    left: dict[str, int] = {}
    for match in PLACEHOLDER.finditer(original):
        left[match.group(1)] = left.get(match.group(1), 0) + 1
    by_label: dict[str, list[str]] = {}
    languages = [translation.get_language() or "en", "en", "zh-hans"]
    for entity_type in left:
        for language in dict.fromkeys(languages):
            with translation.override(language):
                by_label.setdefault(token_label(entity_type).casefold(), []).append(entity_type)

    def restore(match: re.Match) -> str:
        for entity_type in by_label.get(match.group(1).strip().casefold(), []):
            if left.get(entity_type):
                left[entity_type] -= 1
                return f"<{entity_type}>"
        return ""

    return " ".join(MARK.sub(restore, edited).split())
