"""An operator uses the console in a real browser, on the demo data: dashboard charts, a memory
opened from its subject's page, a key revoked — with no console errors."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.accounts.models import ApiKey

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_operator_audits_a_memory_and_revokes_a_key(open_page):
    call_command("seed_demo")
    tab = open_page()

    tab.go("/accounts/login/")
    tab.page.get_by_label("Username").fill("operator")
    tab.page.get_by_label("Password").fill("operator-demo-pass")
    tab.page.get_by_role("button", name="Sign in").click()
    expect(tab.page.locator("body[data-charts-drawn=true]")).to_have_count(1)
    for chart in ("chart-activity", "chart-status", "chart-category", "chart-redactions", "chart-agents"):
        box = tab.page.locator(f"#{chart}").bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, chart
    drawn = tab.page.evaluate("Object.keys(Chart.instances).length")
    assert drawn == 6
    tab.shot("dashboard")

    tab.page.get_by_role("link", name="Subjects").click()
    tab.page.get_by_role("link", name="alice").click()
    tab.shot("subject-grouped")
    tab.page.get_by_text("2 earlier versions").click()  # the city's history, folded under its current version
    expect(tab.page.get_by_role("link", name="Version 1")).to_be_visible()
    tab.page.get_by_label("Status").select_option("superseded")
    tab.page.get_by_role("button", name="Filter").click()
    tab.shot("subject-superseded")
    tab.page.get_by_text("1 earlier version").click()
    tab.page.get_by_role("link", name="Version 1").click()
    expect(tab.page.get_by_role("heading", name="city: Shanghai 上海")).to_be_visible()
    expect(tab.page.get_by_role("heading", name="Version chain")).to_be_visible()
    expect(tab.page.locator("ol.history li")).to_have_count(3)
    expect(tab.page.locator("ol.history ins").first).to_be_visible()
    tab.shot("memory-detail")

    tab.page.get_by_role("link", name="Agents & keys").click()
    key = ApiKey.objects.get()
    tab.page.get_by_role("button", name=f"Revoke key {key.prefix}…").click()  # asks first, in a dialog
    dialog = tab.page.locator("dialog[open]")
    expect(dialog.get_by_role("heading", name=f"Revoke key {key.prefix}… of Support Bot?")).to_be_visible()
    tab.shot("revoke-dialog")
    dialog.get_by_role("link", name="Cancel").click()
    expect(tab.page.locator("dialog")).to_have_count(0)
    key.refresh_from_db()
    assert key.revoked_at is None
    tab.page.get_by_role("button", name=f"Revoke key {key.prefix}…").click()
    tab.page.locator("dialog[open]").get_by_role("button", name="Revoke the key").click()
    expect(tab.page.get_by_text(f"Key {key.prefix}… is revoked")).to_be_visible()
    key.refresh_from_db()
    assert key.revoked_at is not None
    tab.shot("key-revoked")

    tab.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab.page.get_by_role("button", name="Issue a key for Support Bot").click()
    new_key = tab.page.get_by_label("The new key")
    expect(new_key).to_be_focused()  # selected, ready for Ctrl+C
    tab.page.get_by_role("button", name="Copy").click()
    expect(tab.page.get_by_text("Copied to the clipboard.")).to_be_visible()
    assert tab.page.evaluate("navigator.clipboard.readText()") == new_key.input_value()
    assert new_key.input_value().startswith("mk_")
    tab.shot("key-copied")

    assert tab.errors == []


def test_the_chinese_dashboard_has_chinese_legends_and_whole_number_ticks(open_page):
    call_command("seed_demo")
    tab = open_page(locale="zh-CN")
    tab.go("/accounts/login/")
    tab.page.get_by_label("用户名").fill("operator")
    tab.page.get_by_label("密码").fill("operator-demo-pass")
    tab.page.get_by_role("button", name="登录").click()
    expect(tab.page.locator("body[data-charts-drawn=true]")).to_have_count(1)

    legends = tab.page.evaluate(
        "Object.values(Chart.instances).map((c) => c.data.labels.concat(c.data.datasets.map((d) => d.label)))"
    )
    ticks = tab.page.evaluate(
        "Object.values(Chart.instances).filter((c) => c.scales.y && c.config.type === 'bar')"
        ".map((c) => c.scales.y.ticks.map((t) => t.value))"
    )
    words = {str(label) for chart in legends for label in chart}
    assert {"当前", "偏好", "写入", "召回", "手机号（已隐藏）"} <= words
    assert not words & {"active", "preference", "writes", "recalls", "CN_MOBILE"}
    assert all(float(value).is_integer() for chart in ticks for value in chart)
    expect(tab.page.get_by_text("当前记忆（助手可以召回的）")).to_be_visible()
    tab.shot("dashboard-zh")
    assert tab.errors == []
