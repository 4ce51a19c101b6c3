"""Every page passes axe-core (the engine behind Lighthouse's accessibility audit) with no serious or
critical violation: the portal as Alice, the console as the demo operator (an admin of the Demo
workspace) and as the superuser, the public pages signed out, and a confirm dialog while it is open.

axe-core is vendored for the tests only (tests/browser/vendor/axe-core, MPL-2.0, see
static/vendor/README.md) and injected into each page; the browser context bypasses the CSP for
that one script. A failure lists every violation per page: rule, impact, help link and the
elements (CSS selectors) with what is wrong."""

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.accounts.models import ApiKey, Subject
from apps.accounts.services import portal_link_create
from apps.memories.models import Memory
from apps.webhooks.services import endpoint_create

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def violations(tab) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not tab.page.evaluate("typeof axe !== 'undefined'"):
        tab.page.add_script_tag(path=str(AXE))
    result = tab.page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in BLOCKING]


def readable(where: str, found: list[dict]) -> str:
    lines = [f"{where}:"]
    for violation in found:
        lines.append(f"  [{violation['impact']}] {violation['id']}: {violation['help']} — {violation['helpUrl']}")
        for node in violation["nodes"][:8]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"      at {' '.join(map(str, node['target']))}: {summary}")
    return "\n".join(lines)


class Audit:
    """Visits pages, runs axe on each and collects what it finds, so one run reports every page."""

    def __init__(self, tab) -> None:
        self.tab, self.failures, self.checked = tab, [], []

    def check(self, path: str | None = None, *, name: str = "") -> None:
        if path is not None:
            response = self.tab.page.goto(self.tab.base_url + path)
            assert response.status < 500, f"{path} answered {response.status}"
        where = name or path or self.tab.page.url
        self.checked.append(where)
        self.tab.shot(re.sub(r"[^a-z0-9]+", "-", where.lower()).strip("-")[:60])
        if found := violations(self.tab):
            self.failures.append(readable(where, found))

    def assert_clean(self) -> None:
        assert not self.failures, (
            f"axe-core found serious or critical violations on {len(self.failures)} of "
            f"{len(self.checked)} pages:\n\n" + "\n\n".join(self.failures)
        )


def sign_in(tab, username: str, password: str) -> None:
    tab.go("/accounts/login/")
    tab.page.get_by_label("Username").fill(username)
    tab.page.get_by_label("Password").fill(password)
    tab.page.get_by_role("button", name="Sign in").click()
    tab.page.wait_for_load_state()


@pytest.fixture
def demo(db):
    call_command("seed_demo")


def test_the_public_and_portal_pages_have_no_serious_accessibility_violations(open_page, demo):
    tab = open_page(bypass_csp=True)
    audit = Audit(tab)
    audit.check("/")
    audit.check("/accounts/login/")
    audit.check("/me/link/not-a-real-token/")
    _link, token = portal_link_create(subject=Subject.objects.get(external_id="bob"))
    audit.check(f"/me/link/{token}/")

    sign_in(tab, "alice", "alice-demo-pass")
    memory = Memory.objects.get(subject__external_id="alice", key="city", status="active")
    # (/me/memories/<id>/edit is not a page: it is the fragment htmx swaps into a row; its page is the detail)
    for path in (
        "/me/",
        "/me/?q=%E4%B8%8A%E6%B5%B7",
        "/me/?kind=episode",
        f"/me/memories/{memory.id}/",
        f"/me/memories/{memory.id}/delete",
        "/me/forget",
        "/me/export",
        "/console/",
    ):  # the last one: the console's "not for this account" page
        audit.check(path)
    audit.assert_clean()


def test_the_console_pages_have_no_serious_accessibility_violations(open_page, demo):
    tab = open_page(bypass_csp=True)
    audit = Audit(tab)
    sign_in(tab, "operator", "operator-demo-pass")
    alice = Subject.objects.get(external_id="alice")
    city = Memory.objects.get(subject=alice, key="city", status="active")
    superseded = Memory.objects.filter(subject=alice, key="city", status="superseded").first()
    key = ApiKey.objects.get()
    hook, _secret = endpoint_create(
        workspace=alice.workspace, url="https://hooks.example.com/memoryadmin", events=["memory.created"]
    )
    for path in (
        "/console/",
        "/console/subjects/",
        "/console/subjects/?q=ali",
        f"/console/subjects/{alice.pk}/",
        f"/console/subjects/{alice.pk}/?sort=memory&status=superseded",
        f"/console/memories/{city.id}/",
        f"/console/memories/{superseded.id}/",
        f"/console/memories/{city.id}/delete",
        f"/console/subjects/{alice.pk}/export",
        f"/console/subjects/{alice.pk}/forget",
        "/console/audit/",
        "/console/audit/?action=memory.corrected&actor_type=agent",
        "/console/audit/?since=9999-12-31",
        "/console/agents/",
        f"/console/keys/{key.pk}/revoke",
        f"/console/keys/{key.pk}/rotate",
        "/console/settings/retention",
        "/console/settings/me",
        "/console/webhooks/",
        f"/console/webhooks/{hook.pk}/",
        f"/console/webhooks/{hook.pk}/disable",
        f"/console/webhooks/{hook.pk}/rotate-secret",
    ):
        audit.check(path)

    tab.go("/console/agents/")  # a confirm dialog, open
    tab.page.get_by_role("button", name=f"Revoke key {key.prefix}…").click()
    expect(tab.page.locator("dialog[open]")).to_be_visible()
    audit.check(name="the revoke dialog, open")
    tab.page.keyboard.press("Escape")
    expect(tab.page.locator("dialog")).to_have_count(0)

    tab.page.get_by_role("button", name="Issue a key for Support Bot").click()  # the new key, shown once
    expect(tab.page.get_by_label("The new key")).to_be_visible()
    audit.check(name="/console/keys/new")

    tab.go("/console/webhooks/")  # a new webhook's secret, shown once
    tab.page.get_by_label("Receiver URL (https://…)").fill("https://hooks.example.com/second")
    tab.page.get_by_label("memory.deleted").check()
    tab.page.get_by_role("button", name="Add webhook").click()
    expect(tab.page.get_by_label("Signing secret")).to_be_visible()
    audit.check(name="/console/webhooks/secret")
    audit.assert_clean()


def test_the_superusers_pages_have_no_serious_accessibility_violations(open_page, demo):
    tab = open_page(bypass_csp=True)
    audit = Audit(tab)
    sign_in(tab, "admin", "admin-demo-pass")
    audit.check("/console/workspaces/")
    tab.page.get_by_label("Workspace", exact=True).select_option(label="Demo")
    tab.page.get_by_label("Username").fill("newop")
    tab.page.get_by_label("E-mail (only to invite someone without a login)").fill("newop@example.com")
    tab.page.get_by_role("button", name="Add operator").click()
    expect(tab.page.get_by_label("Invite link")).to_be_visible()
    audit.check(name="/console/workspaces/invited")
    audit.assert_clean()
