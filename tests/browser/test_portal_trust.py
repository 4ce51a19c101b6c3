"""What a person notices in a real browser (Chromium): hidden personal data as tokens, never codes,
also in the correction box; keyboard focus that stays on the item they changed; Esc closing the
inline form; undo after a delete; the memory switch that makes the API refuse writes; a skip link,
44 px targets and a one-line Chinese header on a phone."""

import pytest
from playwright.sync_api import expect

from apps.accounts.models import Agent
from apps.memories.models import Memory
from apps.memories.services import Provenance
from tests.browser.test_portal import row, sign_in, sign_in_zh
from tests.conftest import client_with_key
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice_with_memories(alice, alice_user):
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    fact(alice, "contact", "call me at 13812345678", category="fact", provenance=Provenance(agent=bot))
    fact(alice, "editor", "uses Neovim", importance=0.3)
    fact(alice, "reply_language", "中文")
    episode(alice, "问了退款进度 for order 8812", days=1, session_id="s-7", provenance=Provenance(agent=bot))
    return alice


def signed_in(tab, sign_in=sign_in) -> None:
    """Signed in, on the memories page, with htmx ready (keys pressed earlier would submit natively)."""
    sign_in(tab)
    tab.page.wait_for_load_state("load")
    assert tab.page.evaluate("typeof window.htmx") == "object"


def focused_id(tab) -> str:
    return tab.page.evaluate("document.activeElement && document.activeElement.id")


def test_hidden_data_reads_as_a_token_and_the_correction_box_keeps_it_uneditable(open_page, alice_with_memories):
    tab = open_page()
    signed_in(tab)
    contact = row(tab, "call me at")
    expect(contact).to_contain_text("Contact: call me at")
    expect(contact).to_contain_text("phone number (hidden)")
    expect(row(tab, "中文")).to_contain_text("Reply language: 中文")
    expect(tab.page.get_by_text("Conversation with Support Bot at")).to_be_visible()
    assert "<CN_MOBILE>" not in tab.page.inner_text("main") and "%" not in tab.page.inner_text("main")

    contact.get_by_role("link", name="Correct").click()
    editor = tab.page.get_by_role("textbox", name="Corrected text")
    expect(editor).to_be_focused()
    expect(editor.locator(".pii-token")).to_have_text("phone number (hidden)×")
    assert "<CN_MOBILE>" not in editor.inner_text() and "⟦" not in editor.inner_text()
    tab.shot("token-in-correction-box")
    tab.page.keyboard.press("Home")
    tab.page.keyboard.type("please ")
    tab.page.get_by_role("button", name="Save correction").click()
    expect(tab.page.get_by_label("Corrected text")).to_have_count(0)
    expect(row(tab, "please call me at")).to_contain_text("phone number (hidden)")
    assert Memory.objects.get(key="contact", status="active").value == "please call me at <CN_MOBILE>"

    row(tab, "please call me at").get_by_role("link", name="Correct").click()
    tab.page.get_by_role("button", name="Remove phone number (hidden)").click()
    tab.page.get_by_role("button", name="Save correction").click()
    expect(tab.page.get_by_label("Corrected text")).to_have_count(0)
    expect(row(tab, "please call me at")).not_to_contain_text("phone number (hidden)")
    assert Memory.objects.get(key="contact", status="active").value == "please call me at"
    assert tab.errors == []


def test_keyboard_focus_stays_on_a_memory_after_pinning_it_and_it_moves_to_the_pinned_group(
    open_page, alice_with_memories
):
    tab = open_page()
    signed_in(tab)
    editor = Memory.objects.get(key="editor")

    row(tab, "uses Neovim").get_by_role("button", name="Pin ‘Editor: uses Neovim’").focus()
    tab.page.keyboard.press("Enter")

    pinned = tab.page.locator("section.pinned-group")
    expect(pinned.get_by_role("button", name="Unpin ‘Editor: uses Neovim’")).to_be_focused()
    expect(tab.page.locator("#notices")).to_have_text("Pinned ‘Editor: uses Neovim’.")
    assert focused_id(tab) == f"pin-{editor.id}"
    tab.shot("pinned-with-focus")
    assert tab.errors == []


def test_esc_and_cancel_close_the_inline_correction_and_return_focus(open_page, alice_with_memories):
    tab = open_page()
    signed_in(tab)
    editor = Memory.objects.get(key="editor")
    correct = row(tab, "uses Neovim").get_by_role("link", name="Correct ‘Editor: uses Neovim’")

    correct.click()
    expect(tab.page.get_by_label("Corrected text")).to_be_focused()
    tab.page.keyboard.press("Escape")
    expect(tab.page.get_by_label("Corrected text")).to_have_count(0)
    expect(correct).to_be_focused()

    correct.click()
    tab.page.get_by_role("link", name="Cancel").click()
    expect(tab.page.get_by_label("Corrected text")).to_have_count(0)
    expect(correct).to_be_focused()
    assert Memory.objects.filter(lineage=editor.lineage).count() == 1
    assert tab.errors == []


def test_undo_after_a_delete_brings_the_memory_back(open_page, alice_with_memories):
    tab = open_page()
    signed_in(tab)
    editor = Memory.objects.get(key="editor")

    row(tab, "uses Neovim").get_by_role("link", name="Delete ‘Editor: uses Neovim’").click()
    tab.page.get_by_label("Forget it and don’t learn it again").check()
    tab.page.get_by_role("button", name="Delete it").click()
    undo = tab.page.get_by_role("button", name="Undo deleting ‘Editor: uses Neovim’")
    expect(undo).to_be_focused()
    expect(row(tab, "uses Neovim")).to_have_count(0)
    expect(tab.page.locator("#notices")).to_contain_text("You can undo this for 10 seconds.")
    tab.shot("deleted-with-undo")

    undo.click()
    expect(row(tab, "uses Neovim")).to_be_focused()
    expect(tab.page.locator("#notices")).to_have_text("Restored ‘Editor: uses Neovim’.")
    assert Memory.objects.get(pk=editor.pk).status == "active"
    tab.shot("restored")
    assert tab.errors == []


def test_pausing_memory_in_the_portal_makes_the_api_refuse_a_write(open_page, alice_with_memories):
    tab = open_page()
    signed_in(tab)
    switch = tab.page.get_by_role("switch", name="Memory")
    expect(switch).to_have_attribute("aria-checked", "true")

    switch.click()

    expect(tab.page.get_by_role("switch", name="Memory")).to_have_attribute("aria-checked", "false")
    expect(tab.page.locator("#notices")).to_contain_text("Memory is paused")
    response = client_with_key(Agent.objects.get(name="Support Bot")).post(
        "/api/v1/subjects/alice/facts", {"key": "city", "value": "Chengdu", "category": "fact"}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (409, "memory_paused")
    tab.shot("paused")
    assert tab.errors == []


def test_a_skip_link_leads_past_the_header(open_page, alice_with_memories):
    tab = open_page()
    signed_in(tab)
    tab.go("/me/")

    tab.page.keyboard.press("Tab")
    skip = tab.page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    tab.page.keyboard.press("Enter")
    assert tab.page.evaluate("document.activeElement.id") == "main"


def test_on_a_chinese_phone_targets_are_44_px_and_the_header_does_not_wrap(open_page, alice_with_memories):
    tab = open_page(width=360, height=740, locale="zh-CN")
    signed_in(tab, sign_in_zh)

    sign_out = tab.page.get_by_role("button", name="退出")
    box = sign_out.bounding_box()
    assert box["height"] <= 50 and sign_out.evaluate("b => b.scrollWidth <= b.clientWidth"), box
    for control in row(tab, "uses Neovim").locator(".actions a, .actions button").all():
        size = control.bounding_box()
        assert size["height"] >= 44 and size["width"] >= 44, (control.inner_text(), size)
    expect(row(tab, "中文")).to_contain_text("回答语言")
    expect(row(tab, "中文")).to_contain_text("你说过")
    expect(row(tab, "call me")).to_contain_text("手机号（已隐藏）")
    assert tab.page.evaluate("document.documentElement.scrollWidth") <= 360
    tab.shot("phone-zh-targets")
    assert tab.errors == []
