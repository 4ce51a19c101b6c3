from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from apps.memories.models import Memory
from apps.privacy.labels import placeholders_marked, placeholders_restored

KIND_CHOICES = [("", _("Everything")), ("profile", _("About me")), ("episode", _("What happened"))]
CATEGORY_CHOICES = [("", _("All categories"))] + [(value, label) for value, label in Memory.Category.choices]


class FilterForm(forms.Form):
    q = forms.CharField(label=_("Search my memories"), required=False, max_length=200)
    kind = forms.ChoiceField(label=_("Show"), choices=KIND_CHOICES, required=False)
    category = forms.ChoiceField(label=_("Category"), choices=CATEGORY_CHOICES, required=False)


class CorrectForm(forms.Form):
    """A person's correction of `memory`'s content. Its hidden parts show as labels (⟦email⟧), never
    as codes, and each label kept comes back as the code it stood for."""

    value = forms.CharField(
        label=_("Corrected text"),
        max_length=settings.MEMORY_MAX_TEXT_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    reason = forms.CharField(label=_("Why (optional)"), required=False, max_length=500)

    def __init__(self, *args, memory: Memory, **kwargs) -> None:
        kwargs["initial"] = {"value": placeholders_marked(memory.content)}
        super().__init__(*args, **kwargs)
        self.memory = memory

    def clean_value(self) -> str:
        return placeholders_restored(self.cleaned_data["value"], self.memory.content)


class ForgetAllForm(forms.Form):
    confirmation = forms.CharField(label=_("Type the words above to confirm"), max_length=100)

    def __init__(self, *args, phrase: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.phrase = phrase

    def clean_confirmation(self) -> str:
        typed = " ".join(self.cleaned_data["confirmation"].split()).casefold()
        if typed != self.phrase.casefold():
            raise forms.ValidationError(_("That is not the phrase. Nothing was erased."))
        return typed
