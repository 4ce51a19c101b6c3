"""How a write service's refusal reads on a portal or console form (apps.memories.forms)."""

from django import forms
from django.core.exceptions import ValidationError

from apps.memories.forms import add_service_error
from apps.memories.services import MemoryConflict, MemoryPaused
from apps.privacy import PIIRejected


class Correction(forms.Form):
    value = forms.CharField(required=False)
    reason = forms.CharField(required=False)


def errors_for(error: Exception) -> dict:
    form = Correction({"value": "x"})
    form.is_valid()
    add_service_error(form, error, field="value")
    return dict(form.errors)


def test_every_message_of_a_validation_error_goes_on_the_field_it_names_or_else_on_the_given_one():
    error = ValidationError(
        {
            "text": "This field may not be empty.",
            "importance": "Importance must be between 0 and 1.",
            "reason": "Too long.",
        }
    )

    assert errors_for(error) == {
        "value": ["This field may not be empty.", "Importance must be between 0 and 1."],
        "reason": ["Too long."],
    }


def test_a_validation_error_without_a_field_goes_on_the_given_one():
    assert errors_for(ValidationError("Same as the current version.")) == {"value": ["Same as the current version."]}


def test_with_no_field_given_the_errors_of_unknown_fields_go_above_the_form():
    form = Correction({"value": "x"})
    form.is_valid()

    add_service_error(form, ValidationError({"slug": "Taken.", "reason": "Too long."}), field=None)

    assert dict(form.errors) == {"__all__": ["Taken."], "reason": ["Too long."]}


def test_personal_data_that_may_not_be_stored_goes_on_the_field():
    assert errors_for(PIIRejected(["CN_RESIDENT_ID"])) == {
        "value": ["This contains personal data that cannot be stored. Nothing was saved."]
    }


def test_a_newer_version_is_said_above_the_form():
    assert errors_for(MemoryConflict("Version 1 of this memory is superseded.")) == {
        "__all__": ["This memory was changed in the meantime; reload to see the current version."]
    }


def test_the_persons_controls_are_said_above_the_form_in_their_own_words():
    assert errors_for(MemoryPaused("The person has paused memory.", event={})) == {
        "__all__": ["The person has paused memory."]
    }
