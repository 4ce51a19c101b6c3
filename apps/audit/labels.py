"""What each audit action code means, in the reader's language: the console's action picker and
every place that shows an event use these labels (the code stays in the CSV and the API)."""

from django.utils.translation import gettext_lazy as _

from apps.audit.models import AuditEvent

ACTION_LABELS = {
    "memory.created": _("Memory written"),
    "memory.superseded": _("Memory replaced by a newer value"),
    "memory.corrected": _("Memory corrected"),
    "memory.reaffirmed": _("Memory said again (unchanged)"),
    "memory.write_declined": _("Write declined: the current value was kept"),
    "memory.injection_refused": _("Write refused: it read as instructions"),
    "memory.pinned": _("Memory pinned"),
    "memory.unpinned": _("Memory unpinned"),
    "memory.forgotten": _("Memory forgotten"),
    "memory.forget_requested": _("Memory deleted (can still be undone)"),
    "memory.forget_undone": _("Delete undone"),
    "memory.write_refused": _("Write refused: the person paused or blocked it"),
    "memory.expired": _("Memory expired"),
    "memory.archived": _("Memory archived"),
    "memory.consolidated": _("Memories merged into a summary"),
    "memory.compacted": _("Old episodes compacted"),
    "subject.forgotten": _("Everything about a subject forgotten"),
    "subject.exported": _("Subject exported by an operator"),
    "subject.memory_paused": _("Memory paused by the person"),
    "subject.memory_resumed": _("Memory resumed by the person"),
    "suppression.created": _("“Don't learn this again” rule added"),
    "suppression.removed": _("“Don't learn this again” rule removed"),
    "ingest.accepted": _("Conversation turn received"),
    "ingest.done": _("Conversation turn processed"),
    "ingest.failed": _("Conversation turn failed"),
    "portallink.created": _("Portal link created"),
    "portallink.used": _("Portal link used"),
    "portallink.refused": _("Portal link refused"),
    "agent.created": _("Agent created"),
    "apikey.issued": _("API key issued"),
    "apikey.rotated": _("API key rotated"),
    "apikey.revoked": _("API key revoked"),
    "workspace.created": _("Workspace created"),
    "operator.added": _("Operator added"),
    "operator.role_changed": _("Operator role changed"),
    "operator.timezone_changed": _("Operator time zone changed"),
    "retention.updated": _("Retention settings changed"),
    "accesslog.pruned": _("Old access log entries removed"),
    "webhook.created": _("Webhook created"),
    "webhook.updated": _("Webhook changed"),
    "webhook.enabled": _("Webhook switched on"),
    "webhook.disabled": _("Webhook switched off"),
    "webhook.auto_disabled": _("Webhook switched off after failures"),
    "webhook.secret_rotated": _("Webhook secret rotated"),
    "webhook.test_sent": _("Webhook test sent"),
    "webhook.redelivered": _("Webhook delivery sent again"),
}

# The areas of the picker: "memory." matches every memory action (the filter is a prefix).
AREA_LABELS = {
    "memory.": _("Memories"),
    "subject.": _("Subjects"),
    "ingest.": _("Conversation turns"),
    "suppression.": _("Don't-learn-again rules"),
    "portallink.": _("Portal links"),
    "agent.": _("Agents"),
    "apikey.": _("API keys"),
    "workspace.": _("Workspaces"),
    "operator.": _("Operators"),
    "retention.": _("Retention"),
    "accesslog.": _("Access log"),
    "webhook.": _("Webhooks"),
}


def action_label(action: str) -> str:
    """The label of an action code; an unknown code (a newer release's) is shown as it is."""
    return str(ACTION_LABELS.get(action, action))


def action_choices() -> list[tuple[str, object]]:
    """The picker: "any action", then per area "every … action" and each action of it."""
    choices: list[tuple[str, object]] = [("", _("Any action"))]
    for prefix, area in AREA_LABELS.items():
        actions = [(code, label) for code, label in ACTION_LABELS.items() if code.startswith(prefix)]
        choices.append((area, [(prefix, _("All: %(area)s") % {"area": area}), *actions]))
    return choices


def actor_role(actor_type: str) -> str:
    return str(dict(AuditEvent.ActorType.choices).get(actor_type, actor_type))
