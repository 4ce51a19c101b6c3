"""What the portal's and the console's forms share: how a service's refusal reads on a form (never
a 500), and the correction form's one call of `memory_correct`."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from apps.audit.services import Actor
from apps.memories import services
from apps.memories.models import Memory
from apps.privacy import PIIRejected

# What the write services refuse with; InjectionRefused is a ValidationError.
SERVICE_ERRORS = (ValidationError, PIIRejected, services.Refused, services.MemoryConflict)


def add_service_error(form: forms.Form, error: Exception, *, field: str | None) -> None:
    """Show on `form` why a write service refused: what is wrong with what was typed on the field
    it names when the form has that field, else on `field` (None: above the form) — every message
    of a ValidationError, an injection among them, and personal data that may not be stored; what is
    wrong with the moment (a newer version, the person's controls) above the form."""
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        for name, messages in error.message_dict.items():
            form.add_error(name if name in form.fields else field, " ".join(messages))
    elif isinstance(error, ValidationError):
        form.add_error(field, " ".join(error.messages))
    elif isinstance(error, PIIRejected):
        form.add_error(field, _("This contains personal data that cannot be stored. Nothing was saved."))
    elif isinstance(error, services.MemoryConflict):
        form.add_error(None, _("This memory was changed in the meantime; reload to see the current version."))
    else:
        form.add_error(None, str(error))


def memory_correct_from_form(form: forms.Form, *, memory: Memory, actor: Actor) -> services.WriteResult | None:
    """Correct `memory` with a bound correction form's `value` (the memory's new content) and
    `reason`: the new version, or None when the form is invalid or the service refused (said on the form)."""
    if not form.is_valid():
        return None
    try:
        return services.memory_correct(
            memory=memory, actor=actor, content=form.cleaned_data["value"], reason=form.cleaned_data["reason"]
        )
    except SERVICE_ERRORS as error:
        add_service_error(form, error, field="value")
        return None
