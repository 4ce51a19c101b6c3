"""Storage keeps typed placeholders such as <CN_MOBILE>; people see a readable, translated token
("phone number (hidden)", 手机号（已隐藏）) wherever memory text is shown, and the rest of the
text stays escaped."""

import pytest
from django.template import Context, Template
from django.utils import translation

from apps.accounts.models import Agent
from apps.audit.services import Actor
from apps.memories.models import Memory
from apps.memories.services import Provenance, memory_correct
from apps.privacy.labels import TOKEN_LABELS, placeholders_html
from tests.factories import fact

MOBILE, EMAIL = "13812345678", "zhang.san@qq.com"
COVERED = [
    "CN_MOBILE",
    "PHONE_NUMBER",
    "EMAIL_ADDRESS",
    "CN_RESIDENT_ID",
    "HK_ID",
    "TW_ID",
    "CN_PASSPORT",
    "US_SSN",
    "UK_NINO",
    "ID_NUMBER",
    "CN_BANK_CARD",
    "CREDIT_CARD",
    "IBAN_CODE",
    "IP_ADDRESS",
    "CRYPTO",
    "PERSON",
    "LOCATION",
]


@pytest.fixture
def contact(alice):
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    return fact(
        alice, "contact", f"call me at {MOBILE}", provenance=Provenance(agent=bot, excerpt=f"my phone is {MOBILE}")
    )


def render(text: str) -> str:
    return Template("{% load privacy %}{{ text|pii }}").render(Context({"text": text}))


@pytest.mark.django_db
def test_the_memory_list_shows_a_hidden_phone_number_as_a_readable_token(as_alice, contact):
    page = as_alice.get("/me/").content.decode()

    assert "phone number (hidden)" in page and 'class="pii-token"' in page
    assert "&lt;CN_MOBILE&gt;" not in page and MOBILE not in page


@pytest.mark.django_db
def test_the_memory_list_shows_the_token_in_chinese(as_alice, contact):
    page = as_alice.get("/me/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()

    assert "手机号（已隐藏）" in page and "&lt;CN_MOBILE&gt;" not in page


@pytest.mark.django_db
def test_the_detail_page_shows_tokens_in_the_text_the_excerpt_and_the_history(as_alice, contact):
    newer = memory_correct(memory=contact, content=f"mail me at {EMAIL}", actor=Actor.system()).memory

    page = as_alice.get(f"/me/memories/{newer.id}/").content.decode()

    assert "email address (hidden)" in page and "phone number (hidden)" in page  # text and history / excerpt
    assert "&lt;EMAIL_ADDRESS&gt;" not in page.split("<textarea")[0] and "&lt;CN_MOBILE&gt;" not in page


@pytest.mark.django_db
def test_the_rest_of_a_value_stays_escaped(as_alice, alice):
    # The injection guard now refuses <script> at write time; a row stored before it still shows escaped.
    from apps.memories.models import Memory

    note = fact(alice, "note", f"a note, call {MOBILE}")
    Memory.objects.filter(pk=note.pk).update(
        value="<script>alert(1)</script> call <CN_MOBILE>", text="note: <script>alert(1)</script> call <CN_MOBILE>"
    )

    page = as_alice.get("/me/").content.decode()

    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "phone number (hidden)" in page


@pytest.mark.parametrize("entity_type", COVERED)
def test_every_covered_entity_type_has_its_own_label(entity_type):
    assert entity_type in TOKEN_LABELS
    assert "personal data (hidden)" not in render(f"<{entity_type}>")


def test_an_unknown_placeholder_gets_the_generic_label():
    html = render("id <NEW_THING_ID> here")

    assert "personal data (hidden)" in html and html.startswith("id <span") and html.endswith("</span> here")


def test_ordinary_angle_brackets_are_escaped_not_tokens():
    assert render("<b> & <T>") == "&lt;b&gt; &amp; &lt;T&gt;"


def test_the_token_is_translated_and_says_it_was_hidden():
    with translation.override("zh-hans"):
        html = str(placeholders_html("邮箱 <EMAIL_ADDRESS>"))

    assert "邮箱地址（已隐藏）" in html and 'title="' in html and 'data-entity="EMAIL_ADDRESS"' in html


@pytest.mark.django_db
def test_the_correction_box_shows_hidden_data_as_a_label_never_as_a_code(as_alice, contact):
    form = as_alice.get(f"/me/memories/{contact.id}/edit", HTTP_HX_REQUEST="true").content.decode()
    textarea = form.split("<textarea", 1)[1].split("</textarea>", 1)[0]

    assert "call me at ⟦phone number (hidden)⟧" in textarea
    assert "CN_MOBILE" not in textarea and MOBILE not in textarea


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sent, stored",
    [
        ("please call me at ⟦phone number (hidden)⟧", "please call me at <CN_MOBILE>"),  # kept
        ("please call me", "please call me"),  # removed
        ("call ⟦phone number (hidden)⟧ or ⟦phone number (hidden)⟧", "call <CN_MOBILE> or"),  # no more than there were
        ("call ⟦email address (hidden)⟧", "call"),  # a type the memory never had
        ("请打 ⟦手机号（已隐藏）⟧", "请打 <CN_MOBILE>"),  # the label in the other language
    ],
)
def test_a_correction_keeps_the_hidden_parts_the_person_kept(as_alice, contact, sent, stored):
    as_alice.post(f"/me/memories/{contact.id}/correct", {"value": sent})

    assert Memory.objects.get(lineage=contact.lineage, status="active").value == stored
