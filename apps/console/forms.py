import zoneinfo
from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import ApiKey, Membership, Workspace
from apps.audit.models import AuditEvent
from apps.memories.models import Memory

TTL_CATEGORIES = [c for c in Memory.Category.values]


# The areas of the audit log's action picker: "memory." picks every memory action (the filter is a prefix).
ACTION_AREAS = {
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


def action_choices() -> list[tuple[object, object]]:
    """The picker: "any action", then per area "every … action" and each action of it."""
    choices: list[tuple[object, object]] = [("", _("Any action"))]  # (code, label) or (area, [(code, label)])
    for prefix, area in ACTION_AREAS.items():
        actions = [(code, label) for code, label in AuditEvent.Action.choices if code.startswith(prefix)]
        choices.append((area, [(prefix, _("All: %(area)s") % {"area": area}), *actions]))
    return choices


AUDIT_FIRST_DAY, AUDIT_LAST_DAY = date(1970, 1, 1), date(2999, 12, 31)


def _within_audit_range(day: date | None) -> date | None:
    # 9999-12-31 + one day (the exclusive end) overflowed into a 500 before
    if day is not None and not AUDIT_FIRST_DAY <= day <= AUDIT_LAST_DAY:
        raise forms.ValidationError(
            _("Choose a date between %(first)s and %(last)s.")
            % {"first": AUDIT_FIRST_DAY.isoformat(), "last": AUDIT_LAST_DAY.isoformat()}
        )
    return day


class AuditFilterForm(forms.Form):
    actor_type = forms.ChoiceField(
        label=_("Actor"), required=False, choices=[("", _("Anyone"))] + list(AuditEvent.ActorType.choices)
    )
    action = forms.ChoiceField(label=_("Action"), required=False)
    subject = forms.CharField(label=_("Subject id"), required=False, max_length=200)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To (inclusive)"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = action_choices()  # type: ignore[attr-defined]  # a ChoiceField  # per request: the labels are in the reader's language

    def clean_since(self) -> date | None:
        return _within_audit_range(self.cleaned_data["since"])

    def clean_until(self) -> date | None:
        return _within_audit_range(self.cleaned_data["until"])


class SubjectMemoryFilterForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any"))] + list(Memory.Status.choices)
    )
    kind = forms.ChoiceField(label=_("Kind"), required=False, choices=[("", _("Any"))] + list(Memory.Kind.choices))
    category = forms.ChoiceField(
        label=_("Category"), required=False, choices=[("", _("Any"))] + list(Memory.Category.choices)
    )


class ReasonForm(forms.Form):
    """The confirm step of an operator's destructive or privacy-relevant action: why (kept in the audit log)."""

    reason = forms.CharField(label=_("Reason (required, kept in the audit log)"), max_length=500)

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "confirm_%s")  # the page behind the dialog may have its own id_reason
        super().__init__(*args, **kwargs)


class ConfirmForm(forms.Form):
    """A confirm step with nothing to fill in (revoking or rotating a key)."""


class SubjectForgetForm(ReasonForm):
    confirm = forms.CharField(label=_("Type the subject id to confirm"), max_length=200)

    def __init__(self, *args, subject, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.subject = subject

    def clean_confirm(self) -> str:
        if self.cleaned_data["confirm"].strip() != self.subject.external_id:
            raise forms.ValidationError(_("Type “%(id)s” exactly to confirm.") % {"id": self.subject.external_id})
        return self.cleaned_data["confirm"]


def _zone_choices() -> list[tuple[str, str]]:
    return [
        (zone, zone.replace("_", " "))
        for zone in sorted(zoneinfo.available_timezones())
        if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "US/"))
    ] + [("UTC", "UTC")]


class TimezoneForm(forms.Form):
    timezone = forms.ChoiceField(label=_("Show times in"), choices=_zone_choices)


class OperatorChangeForm(forms.Form):
    value = forms.CharField(label=_("Corrected text"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    reason = forms.CharField(label=_("Reason (required, kept in the audit log)"), max_length=500)


class AgentForm(forms.Form):
    name = forms.CharField(label=_("Agent name"), max_length=100)
    description = forms.CharField(label=_("Description"), required=False, max_length=300)


class KeyForm(forms.Form):
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"), choices=ApiKey.Scope.choices, widget=forms.CheckboxSelectMultiple, initial=["read", "write"]
    )


class RetentionForm(forms.Form):
    subject_capacity = forms.IntegerField(label=_("Episodes kept per subject"), min_value=1, max_value=1_000_000)
    archive_unread_after_days = forms.IntegerField(
        label=_("Archive unimportant memories not read for (days)"), min_value=1, max_value=36500
    )
    access_log_retention_days = forms.IntegerField(
        label=_("Keep the access log for (days)"), min_value=1, max_value=36500
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for category, label in Memory.Category.choices:
            self.fields[f"ttl_{category}"] = forms.IntegerField(
                label=_("%(category)s expire after (days, empty = never)") % {"category": label},
                required=False,
                min_value=1,
                max_value=36500,
            )

    def ttl_days(self) -> dict[str, int | None]:
        return {category: self.cleaned_data.get(f"ttl_{category}") for category in TTL_CATEGORIES}


class WorkspaceForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    slug = forms.SlugField(label=_("Slug (short unique id, e.g. acme)"), max_length=50)


class OperatorForm(forms.Form):
    workspace = forms.ModelChoiceField(label=_("Workspace"), queryset=Workspace.objects.order_by("name"))
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("E-mail (only to invite someone without a login)"), required=False)
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.OPERATOR)
