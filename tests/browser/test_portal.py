"""A person uses the portal in a real browser: sign in, search in Chinese, pin, correct, delete,
export, forget everything — with no console errors."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from apps.accounts.models import Agent
from apps.memories.models import Memory
from apps.memories.services import Provenance
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice_with_memories(alice, alice_user):
    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    fact(alice, "drink", "喜欢喝乌龙茶 oolong tea", provenance=Provenance(agent=bot, excerpt="我喜欢喝乌龙茶"))
    fact(alice, "diet", "不吃辣 no spicy food", category="constraint")
    fact(alice, "editor", "uses Neovim", importance=0.3)
    episode(alice, "问了退款进度 for order 8812", days=1, session_id="s-7")
    return alice


def sign_in(tab) -> None:
    tab.go("/accounts/login/")
    tab.page.get_by_label("Username").fill("alice")
    tab.page.get_by_label("Password").fill("alice-pass")
    tab.page.get_by_role("button", name="Sign in").click()
    expect(tab.page.get_by_role("heading", name="What the assistant remembers about me")).to_be_visible()


def row(tab, text: str):
    return tab.page.locator("li.memory", has_text=text)


def test_a_person_reviews_and_controls_their_memories(open_page, alice_with_memories):
    tab = open_page()
    sign_in(tab)
    tab.shot("signed-in")

    tab.page.get_by_label("Search my memories").fill("乌龙")
    expect(row(tab, "不吃辣")).to_have_count(0)
    expect(row(tab, "乌龙茶")).to_have_count(1)
    assert "q=%E4%B9%8C%E9%BE%99" in tab.page.url
    tab.shot("search-chinese")

    tab.page.get_by_label("Search my memories").fill("")
    expect(row(tab, "不吃辣")).to_have_count(1)
    row(tab, "乌龙茶").get_by_role("button", name="Pin").click()
    expect(row(tab, "乌龙茶").get_by_role("button", name="Unpin")).to_be_visible()
    assert Memory.objects.get(key="drink", status="active").pinned
    tab.shot("pinned")

    row(tab, "乌龙茶").get_by_role("link", name="Correct").click()
    tab.page.get_by_label("Corrected text").fill("喜欢喝红茶, call me at 13812345678")
    tab.page.get_by_role("button", name="Save correction").click()
    expect(row(tab, "喜欢喝红茶")).to_contain_text("A phone number was removed before saving")
    expect(row(tab, "喜欢喝红茶")).to_contain_text("phone number (hidden)")
    expect(row(tab, "喜欢喝红茶")).not_to_contain_text("<CN_MOBILE>")
    tab.shot("corrected")

    row(tab, "喜欢喝红茶").get_by_role("link", name="Details").click()
    history = tab.page.locator("ol.history")
    expect(history).to_contain_text("Version 1")
    expect(history).to_contain_text("喜欢喝乌龙茶 oolong tea")
    expect(history).to_contain_text("Version 2")
    expect(history).to_contain_text("you")
    expect(tab.page.get_by_text("You corrected this on")).to_be_visible()  # the person's correction is theirs
    expect(tab.page.get_by_text("Learned in a conversation with Support Bot")).to_have_count(0)
    tab.shot("history")

    tab.go("/me/")
    row(tab, "uses Neovim").get_by_role("link", name="Delete").click()  # opens the inline confirmation
    tab.page.get_by_role("button", name="Delete it").click()
    expect(tab.page.locator(".undo-area")).to_contain_text("Deleted ‘Editor: uses Neovim’.")
    assert not Memory.objects.filter(key="editor", status="active").exists()
    tab.shot("deleted")

    tab.page.get_by_role("link", name="Export").click()
    expect(tab.page.get_by_role("heading", name="Everything kept about me")).to_be_visible()
    with tab.page.expect_download() as download:
        tab.page.get_by_role("link", name="Download as JSON").click()
    document = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert document["subject"]["external_id"] == "alice"
    tab.shot("export")

    tab.page.get_by_role("link", name="Forget everything").click()
    tab.page.get_by_label("Type the words above to confirm").fill("forget everything")
    tab.page.get_by_role("button", name="Erase everything").click()
    expect(tab.page.get_by_text("Nothing is remembered about you yet")).to_be_visible()
    assert not Memory.objects.filter(status="active").exists()
    tab.shot("forgot-everything")

    assert tab.errors == []


def test_the_portal_reads_well_on_a_phone_in_chinese(open_page, alice_with_memories):
    tab = open_page(width=360, height=740, locale="zh-CN")
    sign_in_zh(tab)

    expect(tab.page.get_by_role("heading", name="助手记住了我什么")).to_be_visible()
    width = tab.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways ({width}px)"
    tab.shot("phone-zh")
    assert tab.errors == []


def sign_in_zh(tab) -> None:
    tab.go("/accounts/login/")
    tab.page.get_by_label("用户名").fill("alice")
    tab.page.get_by_label("密码").fill("alice-pass")
    tab.page.get_by_role("button", name="登录").click()
