"""A subject's external id is shown to operators and people: bidirectional controls (which make
"alice\u202egnp.exe" read as something else) and other control or invisible format characters are
refused wherever a subject can be created, with a message for the field."""

import pytest
from django.core.exceptions import ValidationError

from apps.accounts.models import Subject
from apps.accounts.services import subject_get_or_create
from apps.memories.ingest import ingest_accept

pytestmark = pytest.mark.django_db

BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f"]
OTHER_INVISIBLE = ["\x7f", "\x85", "\u200b", "\u2060", "\ufeff", "\u00ad", "\x1b"]


@pytest.mark.parametrize("char", BIDI + OTHER_INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_it_refuses_an_external_id_with_a_bidi_control_or_invisible_character(acme, char):
    with pytest.raises(ValidationError) as refused:
        subject_get_or_create(workspace=acme, external_id=f"alice{char}gnp.exe")

    assert "control" in " ".join(refused.value.message_dict["external_id"])
    assert not Subject.objects.exists()


def test_accepting_a_turn_refuses_a_subject_id_with_a_bidi_override(acme, support_bot):
    with pytest.raises(ValidationError):
        ingest_accept(
            workspace=acme, external_id="bob\u202e", agent=support_bot, turn_id="t-1", user_message="我不吃辣"
        )
    assert not Subject.objects.exists()


@pytest.mark.parametrize("external_id", ["张三-42", "josé.garcía", "user:7f3a", "ユーザー_9"])
def test_letters_of_any_script_are_still_fine(acme, external_id):
    assert subject_get_or_create(workspace=acme, external_id=external_id).external_id == external_id
