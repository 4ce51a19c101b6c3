"""`{% load privacy %}{{ memory.text|pii }}`: stored placeholders such as <CN_MOBILE> shown to
people as readable, translated tokens; everything else escaped as usual."""

from django import template
from django.utils.safestring import SafeString

from apps.privacy.labels import placeholders_html

register = template.Library()


@register.filter(needs_autoescape=True)
def pii(value: object, autoescape: bool = True) -> object:
    if isinstance(value, SafeString) or not autoescape:
        return value  # already HTML, or the template asked for raw output
    return placeholders_html("" if value is None else str(value))


@register.filter
def has_marks(value: object) -> bool:
    """Whether correction-box text holds ⟦hidden⟧ parts (placeholders shown for editing)."""
    from apps.privacy.labels import MARK_OPEN

    return MARK_OPEN in str(value or "")
