"""`{% load console_tags %}`: times in the operator's zone with the zone named, actors and audit
actions in the reader's language."""

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html

from apps.audit.models import AuditEvent
from apps.privacy.labels import GENERIC_TOKEN, TOKEN_LABELS, placeholders_html

register = template.Library()


@register.filter
def stamp(value, seconds: str = ""):
    """<time datetime="…Z" title="Asia/Shanghai">2026-11-30 14:05 CST</time>, in the zone the
    console runs the request in (the operator's own, see console_view)."""
    if not value:
        return "—"
    local = timezone.localtime(value)
    shown = dateformat.format(local, "Y-m-d H:i:s" if seconds else "Y-m-d H:i")
    return format_html(
        '<time datetime="{}" title="{}">{} <span class="zone">{}</span></time>',
        value.isoformat(),
        timezone.get_current_timezone_name(),
        shown,
        local.tzname(),
    )


@register.filter
def action(code: str) -> str:
    """The label of an action code; an unknown code (a newer release's) is shown as it is."""
    return str(dict(AuditEvent.Action.choices).get(code, code))


@register.filter
def actor(event):
    """'olga (Operator)', 'Support Bot (Agent)', 'System': a name and a translated role."""
    role = str(dict(AuditEvent.ActorType.choices).get(event.actor_type, event.actor_type))
    name = event.actor_name
    if not name or name == "system" or event.actor_type == "system" and name == role:
        return role
    return format_html('{} <span class="role">({})</span>', placeholders_html(name), role)


@register.filter
def entity(entity_type: str) -> str:
    """The label people see for a type of removed personal data ("phone number (hidden)")."""
    return str(TOKEN_LABELS.get(entity_type, GENERIC_TOKEN)[1])


@register.simple_tag(takes_context=True)
def sort_link(context, column: str, label: str):
    """A sortable column header's link: ascending first, the other way when it is the current sort."""
    sort = context["sort"]
    descending = not sort["descending"] if sort["column"] == column else column == "updated"
    query = context["request"].GET.copy()
    query["sort"] = ("-" if descending else "") + column
    query.pop("page", None)
    arrow = ("▼" if sort["descending"] else "▲") if sort["column"] == column else ""
    return format_html('<a href="?{}">{}</a> <span aria-hidden="true">{}</span>', query.urlencode(), label, arrow)
