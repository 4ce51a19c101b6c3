"""`{% load privacy %}{{ memory.text|pii }}`: stored placeholders such as <CN_MOBILE> shown to
people as readable, translated tokens; everything else escaped as usual."""

from django import template
from django.utils.safestring import SafeString

from apps.privacy.labels import placeholders_html

register = template.Library()


@register.filter(needs_autoescape=True)
def pii(value, autoescape: bool = True):
    if isinstance(value, SafeString) or not autoescape:
        return value  # already HTML, or the template asked for raw output
    return placeholders_html("" if value is None else str(value))
