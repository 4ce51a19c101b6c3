"""`{% load memory_labels %}`: `{{ memory|memory_html }}`, `{{ memory|memory_plain }}`,
`{{ memory|confidence_words }}`, `{{ key|key_label }}` (apps.memories.labels)."""

from django import template

from apps.memories import labels

register = template.Library()

register.filter("memory_html", labels.memory_html)
register.filter("memory_plain", labels.memory_plain)
register.filter("confidence_words", labels.confidence_words)
register.filter("key_label", labels.key_label)
