"""What an operator reads: a subject's memories grouped by memory with sortable columns, an audit log
with labels, the memory text and what changed, times in the operator's own zone (named), a dashboard
whose figures say what they count, in the reader's language."""

import json
from datetime import UTC, datetime

import pytest
from django.utils import translation
from django.utils.html import escape

from apps.accounts.models import Membership
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.memories.models import Memory
from apps.memories.services import memory_correct
from tests.factories import fact

pytestmark = pytest.mark.django_db


def rows(page) -> list[str]:
    return page.content.decode().split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]


def test_the_subject_page_shows_one_row_per_memory_with_its_versions_folded(as_olga, alice):
    tea = fact(alice, "tea", "green tea")
    memory_correct(memory=tea, content="black tea", actor=Actor.system())
    memory_correct(memory=Memory.objects.get(key="tea", status="active"), content="oolong", actor=Actor.system())
    fact(alice, "editor", "vim")

    found = rows(as_olga.get(f"/console/subjects/{alice.pk}/"))

    assert len(found) == 2
    tea_row = next(row for row in found if "tea: oolong" in row)
    assert "<details" in tea_row and "2 earlier versions" in tea_row
    assert tea_row.index("Version 2") < tea_row.index("Version 1")  # newest first
    assert "tea: black tea" in tea_row and "tea: green tea" in tea_row and "<td>3</td>" in tea_row


def test_the_subject_page_sorts_on_the_server_by_any_column(as_olga, alice):
    fact(alice, "beta", "b", category="fact")
    fact(alice, "alpha", "a", category="preference")
    tea = fact(alice, "tea", "green tea", category="goal")
    memory_correct(memory=tea, content="black tea", actor=Actor.system())

    def order(sort):
        return [
            next(k for k in ("alpha", "beta", "tea") if f"{k}: " in row)
            for row in rows(as_olga.get(f"/console/subjects/{alice.pk}/", {"sort": sort}))
        ]

    assert order("memory") == ["alpha", "beta", "tea"]
    assert order("-memory") == ["tea", "beta", "alpha"]
    assert order("-versions")[0] == "tea"
    assert order("category") == ["beta", "tea", "alpha"]  # fact, goal, preference
    assert order("nonsense") == order("-updated")
    page = as_olga.get(f"/console/subjects/{alice.pk}/", {"sort": "memory"}).content.decode()
    assert 'aria-sort="ascending"' in page and "sort=-memory" in page


def test_the_subject_page_query_count_does_not_grow_with_versions(as_olga, alice, django_assert_max_num_queries):
    for number in range(30):
        memory = fact(alice, f"k{number}", f"v{number}")
        memory_correct(memory=memory, content=f"w{number}", actor=Actor.system())
    with django_assert_max_num_queries(9):
        page = as_olga.get(f"/console/subjects/{alice.pk}/")
    assert len(rows(page)) == 30


def test_the_audit_log_picks_actions_by_their_label_and_shows_what_changed(as_olga, alice):
    tea = fact(alice, "tea", "green tea")
    memory_correct(memory=tea, content="black tea", actor=Actor.system(), reason="ticket 9")
    fact(alice, "editor", "vim")

    page = as_olga.get("/console/audit/", {"action": "memory.corrected"})

    body = page.content.decode()
    assert '<option value="memory.corrected" selected>Memory corrected</option>' in body
    assert '<option value="memory.">All: Memories</option>' in body
    [row] = rows(page)
    assert "Memory corrected" in row and '<code class="hint">memory.corrected</code>' in row
    assert "<del>green</del><ins>black</ins>" in row and "“ticket 9”" in row
    corrected = Memory.objects.get(key="tea", status="active")
    assert f"<code>{corrected.id}</code>" in row  # the whole id, not 8 characters
    assert len(rows(as_olga.get("/console/audit/", {"action": "memory."}))) == 3


def test_the_action_picker_offers_every_action_by_its_label_in_the_readers_language(as_olga):
    with translation.override("zh-hans"):
        body = as_olga.get("/console/audit/", headers={"Accept-Language": "zh-hans"}).content.decode()
        options = [f'<option value="{action.value}">{escape(action.label)}</option>' for action in AuditEvent.Action]

    assert [option for option in options if option not in body] == []
    assert '<option value="memory.corrected">记忆已更正</option>' in options


def test_an_unknown_action_in_the_filter_is_a_form_error(as_olga, alice):
    page = as_olga.get("/console/audit/", {"action": "memory.corr"})

    assert page.status_code == 400 and 'role="alert"' in page.content.decode()


def test_actors_are_named_with_a_translated_role(as_olga, alice, olga):
    tea = fact(alice, "tea", "green tea")
    memory_correct(
        memory=tea, content="black tea", actor=Actor.user(olga, type="operator", channel="console"), reason="ticket 9"
    )

    english = as_olga.get("/console/audit/").content.decode()
    chinese = as_olga.get("/console/audit/", headers={"Accept-Language": "zh-hans"}).content.decode()

    assert 'olga <span class="role">(Operator)</span>' in english and "Operator olga" not in english
    assert 'olga <span class="role">(管理员)</span>' in chinese


def test_times_are_in_the_operators_zone_and_the_zone_is_named(as_olga, olga, alice):
    tea = fact(alice, "tea", "green tea")
    AuditEvent.objects.filter(memory=tea).update(created_at=datetime(2026, 11, 30, 23, 30, tzinfo=UTC))
    Membership.objects.filter(user=olga).update(timezone="Asia/Shanghai")

    page = as_olga.get("/console/audit/").content.decode()

    assert '2026-12-01 07:30:00 <span class="zone">CST</span>' in page
    assert 'datetime="2026-11-30T23:30:00+00:00" title="Asia/Shanghai"' in page
    assert "Asia/Shanghai</a>" in page  # in the header, a link to change it
    on_that_day = as_olga.get("/console/audit/", {"since": "2026-12-01", "until": "2026-12-01"})
    assert len(rows(on_that_day)) == 1  # the filter's days are days in the operator's zone


def test_an_operator_chooses_their_zone_and_the_change_is_audited(as_olga, olga):
    page = as_olga.get("/console/settings/me").content.decode()
    assert '<option value="Europe/Berlin">Europe/Berlin</option>' in page

    assert as_olga.post("/console/settings/me", {"timezone": "Mars/Olympus"}).status_code == 400
    saved = as_olga.post("/console/settings/me", {"timezone": "Europe/Berlin"}, follow=True)

    assert "Times are now shown in Europe/Berlin." in saved.content.decode()
    assert Membership.objects.get(user=olga).timezone == "Europe/Berlin"
    event = AuditEvent.objects.get(action="operator.timezone_changed")
    assert event.before["timezone"] == "UTC" and event.after["timezone"] == "Europe/Berlin"


def dashboard_data(page) -> dict:
    body = page.content.decode()
    return json.loads(body.split('<script id="dashboard-data" type="application/json">')[1].split("</script>")[0])


def test_the_dashboard_tells_active_memories_from_all_stored_rows(as_olga, alice):
    tea = fact(alice, "tea", "green tea")
    memory_correct(memory=tea, content="black tea", actor=Actor.system())
    fact(alice, "editor", "vim")

    body = as_olga.get("/console/").content.decode()

    assert '<div class="figure">2</div><div>active memories' in body
    assert '<div class="figure">3</div><div>rows stored (every version' in body


def test_the_dashboard_counts_superseded_corrected_and_declined_writes(as_olga, alice):
    tea = fact(alice, "tea", "green tea")
    memory_correct(memory=tea, content="black tea", actor=Actor.system())
    fact(alice, "city", "Berlin", category="fact")
    fact(alice, "city", "Paris", category="fact")
    fact(alice, "editor", "vim", confidence=0.9)
    fact(alice, "editor", "emacs", confidence=0.5)

    body = as_olga.get("/console/").content.decode()

    assert '<div class="figure">1 / 1</div><div>superseded / corrected' in body
    assert '<div class="figure">1</div><div>conflicts kept the current value' in body


def test_the_dashboard_legends_are_in_the_readers_language(as_olga, alice):
    fact(alice, "contact", "call 13812345678")

    with translation.override("zh-hans"):
        data = dashboard_data(as_olga.get("/console/", headers={"Accept-Language": "zh-hans"}))

    assert data["status"]["keys"] == ["active"] and data["status"]["labels"] == ["当前"]
    assert data["category"]["labels"] == ["偏好"]
    assert data["redactions"]["keys"] == ["CN_MOBILE"] and data["redactions"]["labels"] == ["手机号（已隐藏）"]
    assert data["text"]["writes"] != "writes"


def test_the_admin_names_its_tables_in_good_english(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="pw")
    client.force_login(admin)

    page = client.get("/admin/").content.decode()

    assert "Memories" in page and "Memorys" not in page
    assert "Access log entries" in page and "Webhook deliveries" in page and "API keys" in page
