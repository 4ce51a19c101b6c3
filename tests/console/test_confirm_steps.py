"""Nothing irreversible happens on one click: forgetting a memory or a subject, revoking or rotating a
key first shows what will happen (a page without JavaScript, a <dialog> with htmx); only the POST,
with its CSRF token, acts. A new key is shown in a read-only field with a Copy button."""

import json

import pytest
from django.test import Client

from apps.accounts.models import ApiKey
from apps.accounts.services import apikey_issue
from apps.audit.models import AuditEvent
from apps.memories.models import Memory
from tests.factories import fact

pytestmark = pytest.mark.django_db


@pytest.fixture
def tea(alice) -> Memory:
    return fact(alice, "tea", "green tea, call 13812345678")


@pytest.fixture
def key(support_bot) -> ApiKey:
    return apikey_issue(agent=support_bot, scopes=["read", "write"])[0]


def test_forget_asks_first_and_a_get_changes_nothing(as_olga, tea):
    page = as_olga.get(f"/console/memories/{tea.id}/delete")

    body = page.content.decode()
    assert page.status_code == 200 and "<h1" in body and "Forget this memory?" in body
    assert "erased for real" in body and "phone number (hidden)" in body and 'name="reason"' in body
    assert 'method="post"' in body and "csrfmiddlewaretoken" in body
    assert Memory.objects.get(pk=tea.pk).status == "active"


def test_with_htmx_the_confirm_step_is_a_dialog_named_by_its_heading(as_olga, tea):
    page = as_olga.get(f"/console/memories/{tea.id}/delete", headers={"HX-Request": "true"}).content.decode()

    assert page.startswith('<dialog class="confirm-dialog" aria-labelledby="confirm-title">')
    assert '<h2 id="confirm-title">' in page and "<html" not in page and "csrfmiddlewaretoken" in page


def test_the_memory_page_opens_the_confirm_step_instead_of_forgetting(as_olga, tea):
    page = as_olga.get(f"/console/memories/{tea.id}/").content.decode()

    forget = page.split('id="forget-heading"')[1].split("</section>")[0]
    assert 'method="get"' in forget and 'hx-target="#dialogs"' in forget and "csrfmiddlewaretoken" not in forget


def test_forget_needs_a_reason_and_then_forgets_every_version(as_olga, tea):
    refused = as_olga.post(f"/console/memories/{tea.id}/delete", {"reason": ""})
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
    assert Memory.objects.get(pk=tea.pk).status == "active"

    done = as_olga.post(f"/console/memories/{tea.id}/delete", {"reason": "asked by e-mail"})

    assert done.status_code == 302
    assert set(Memory.objects.filter(lineage=tea.lineage).values_list("status", flat=True)) == {"deleted"}
    assert AuditEvent.objects.get(action="memory.forgotten").reason == "asked by e-mail"


def test_the_actions_still_need_the_csrf_token(login_as, olga, adam, tea, key, alice):
    for user, url, data in (
        (olga, f"/console/memories/{tea.id}/delete", {"reason": "x"}),
        (adam, f"/console/keys/{key.pk}/revoke", {}),
        (adam, f"/console/keys/{key.pk}/rotate", {}),
        (olga, f"/console/subjects/{alice.pk}/forget", {"reason": "x", "confirm": "alice"}),
    ):
        assert login_as(user, Client(enforce_csrf_checks=True)).post(url, data).status_code == 403, url
    assert Memory.objects.get(pk=tea.pk).status == "active"
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None and ApiKey.objects.count() == 1


def test_revoke_and_rotate_ask_first(as_adam, key):
    agents = as_adam.get("/console/agents/").content.decode()
    assert f'action="/console/keys/{key.pk}/revoke" hx-get=' in agents and 'method="get"' in agents

    revoke = as_adam.get(f"/console/keys/{key.pk}/revoke").content.decode()
    rotate = as_adam.get(f"/console/keys/{key.pk}/rotate").content.decode()

    assert "gets 401 from now on" in revoke and "Revoke the key" in revoke
    assert "same scopes" in rotate and "Rotate the key" in rotate
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None and ApiKey.objects.count() == 1

    as_adam.post(f"/console/keys/{key.pk}/revoke")
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None


def test_a_revoked_keys_confirm_step_says_so_instead(as_adam, key):
    as_adam.post(f"/console/keys/{key.pk}/revoke")

    again = as_adam.get(f"/console/keys/{key.pk}/revoke", follow=True).content.decode()

    assert "is revoked already" in again


def test_operators_who_are_not_admins_get_no_key_confirm_step(as_olga, key):
    assert as_olga.get(f"/console/keys/{key.pk}/revoke").status_code == 403


def test_a_new_key_is_in_a_read_only_field_with_a_copy_button(as_adam, support_bot):
    issued = as_adam.post(f"/console/agents/{support_bot.pk}/keys", {"scopes": ["read"]}, follow=True)
    page = issued.content.decode()
    raw_key = issued.context["raw_key"]

    assert f'<input id="new-key" class="secret" type="text" value="{raw_key}" readonly' in page
    assert '<label for="new-key">' in page and 'data-copy="new-key"' in page and "js/console.js" in page


def test_forgetting_a_subject_needs_a_reason_and_its_id_typed(as_olga, alice, tea):
    confirm = as_olga.get(f"/console/subjects/{alice.pk}/forget").content.decode()
    assert "Forget everything about alice?" in confirm and "Type the subject id to confirm" in confirm

    wrong = as_olga.post(f"/console/subjects/{alice.pk}/forget", {"reason": "GDPR request", "confirm": "bob"})
    assert wrong.status_code == 400 and "Type “alice” exactly" in wrong.content.decode()
    assert Memory.objects.get(pk=tea.pk).status == "active"

    done = as_olga.post(
        f"/console/subjects/{alice.pk}/forget", {"reason": "GDPR request", "confirm": "alice"}, follow=True
    )

    assert "Everything about alice was forgotten (1 memory rows erased)" in done.content.decode()
    assert Memory.objects.get(pk=tea.pk).status == "deleted"
    event = AuditEvent.objects.get(action="subject.forgotten")
    assert (event.actor_type, event.actor_name, event.reason) == ("operator", "olga", "GDPR request")


def test_an_operator_exports_a_subject_with_a_reason_that_is_audited(as_olga, alice, tea):
    confirm = as_olga.get(f"/console/subjects/{alice.pk}/export")
    assert confirm.status_code == 200 and "Download the export" in confirm.content.decode()
    assert as_olga.post(f"/console/subjects/{alice.pk}/export", {"reason": ""}).status_code == 400
    assert not AuditEvent.objects.filter(action="subject.exported").exists()

    export = as_olga.post(f"/console/subjects/{alice.pk}/export", {"reason": "subject access request #7"})

    assert export.status_code == 200 and "attachment" in export["Content-Disposition"]
    document = json.loads(export.content)
    assert document["subject"]["external_id"] == "alice"
    assert document["memories"][0]["versions"][0]["value"] == "green tea, call <CN_MOBILE>"
    event = AuditEvent.objects.get(action="subject.exported")
    assert (event.actor_name, event.reason, event.after) == ("olga", "subject access request #7", {"memories": 1})


def test_another_workspaces_operator_cannot_export_or_forget_a_subject(as_gina, alice, tea):
    assert as_gina.get(f"/console/subjects/{alice.pk}/export").status_code == 404
    assert as_gina.post(f"/console/subjects/{alice.pk}/forget", {"reason": "x", "confirm": "alice"}).status_code == 404
    assert Memory.objects.get(pk=tea.pk).status == "active"
