"""Every text column of our apps is classified in `apps.privacy.fields.FIELD_POLICY` (redacted,
identifier or system), so a new unclassified one fails here; and every write path an agent, a
person or an operator can reach, fed personal data in every free-text input, stores none of it."""

import pytest
from django.apps import apps
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.search import SearchVectorField
from django.db import models

from apps.accounts.services import agent_create, subject_get_or_create, workspace_create
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.memories.extraction import Extraction, Proposal
from apps.memories.extraction.base import Skip
from apps.memories.ingest import ingest_accept, ingest_fail, ingest_process
from apps.memories.models import Ingest, Memory
from apps.privacy.fields import FIELD_POLICY, POLICIES
from tests.dbscan import columns_containing

OUR_APPS = {"accounts", "memories", "audit", "privacy", "api", "portal", "console", "webhooks"}
TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField, ArrayField, SearchVectorField)

MOBILE, EMAIL, RESIDENT_ID, BANK_CARD = "13812345678", "zhang.san@qq.com", "11010519491231002X", "6222020200112233446"
PII = f"我的手机是{MOBILE}，邮箱 {EMAIL}，身份证 {RESIDENT_ID}，卡号 {BANK_CARD}"


def our_text_fields() -> set[str]:
    return {
        f"{model._meta.app_label}.{model.__name__}.{field.name}"
        for model in apps.get_models()
        if model._meta.app_label in OUR_APPS
        for field in model._meta.concrete_fields
        if isinstance(field, TEXT_FIELDS)
    }


def assert_no_pii_stored():
    for needle in (MOBILE, EMAIL, RESIDENT_ID, BANK_CARD):
        assert columns_containing(needle) == [], f"{needle!r} was stored"


def test_every_text_field_of_our_apps_is_classified():
    unclassified = sorted(our_text_fields() - set(FIELD_POLICY))

    assert unclassified == [], f"classify these in apps/privacy/fields.py: {unclassified}"


def test_the_policy_names_only_fields_that_exist_with_known_classes():
    assert sorted(set(FIELD_POLICY) - our_text_fields()) == []
    assert set(FIELD_POLICY.values()) <= set(POLICIES)


@pytest.mark.django_db(transaction=True)
def test_every_api_write_path_stores_no_personal_data(api, alice):
    fact = api.post(
        "/api/v1/subjects/alice/facts",
        {
            "key": f"contact {EMAIL}",
            "value": PII,
            "category": "preference",
            "session_id": "s-1",
            "turn_id": "t-1",
            "metadata": {"raw": PII, PII: [{"card": BANK_CARD}]},
        },
        format="json",
    )
    episode = api.post("/api/v1/subjects/alice/episodes", {"text": PII, "metadata": {"note": PII}}, format="json")
    corrected = api.patch(f"/api/v1/memories/{fact.json()['id']}", {"value": f"{PII}!", "reason": PII}, format="json")
    turn = api.post(
        "/api/v1/subjects/alice/turns",
        {"turn_id": "t-2", "user_message": f"我不吃辣。{PII}", "assistant_message": f"好的，已记下 {PII}"},
        format="json",
    )
    recalled = api.post("/api/v1/subjects/alice/recall", {"query": PII}, format="json")
    forgotten = api.delete(f"/api/v1/memories/{episode.json()['id']}")

    statuses = [r.status_code for r in (fact, episode, corrected, turn, recalled, forgotten)]
    assert statuses == [201, 201, 200, 202, 200, 204]
    assert Ingest.objects.get().status == "done"
    assert_no_pii_stored()


@pytest.mark.django_db(transaction=True)
def test_every_portal_write_path_stores_no_personal_data(login_as, api, alice, alice_user):
    memory_id = api.post(
        "/api/v1/subjects/alice/facts", {"key": "drink", "value": "oolong", "category": "preference"}, format="json"
    ).json()["id"]
    client = login_as(alice_user)

    corrected = client.post(f"/me/memories/{memory_id}/correct", {"value": PII, "reason": PII})

    assert corrected.status_code == 302
    assert "<CN_MOBILE>" in Memory.objects.get(subject=alice, status="active").value
    assert_no_pii_stored()


@pytest.mark.django_db(transaction=True)
def test_every_console_write_path_stores_no_personal_data(login_as, api, acme, alice, adam):
    first = api.post(
        "/api/v1/subjects/alice/facts", {"key": "drink", "value": "oolong", "category": "preference"}, format="json"
    ).json()["id"]
    second = api.post(
        "/api/v1/subjects/alice/facts", {"key": "food", "value": "noodles", "category": "preference"}, format="json"
    ).json()["id"]
    client = login_as(adam)

    corrected = client.post(f"/console/memories/{first}/correct", {"value": PII, "reason": f"ticket from {PII}"})
    forgotten = client.post(f"/console/memories/{second}/delete", {"reason": f"asked by {PII}"})
    agent = client.post("/console/agents/", {"name": "Travel Bot", "description": f"escalates to {PII}"})

    assert [corrected.status_code, forgotten.status_code, agent.status_code] == [302, 302, 302]
    assert AuditEvent.objects.get(action="memory.corrected").reason.startswith("ticket from 我的手机是<CN_MOBILE>")
    assert acme.agents.get(name="Travel Bot").description.startswith("escalates to 我的手机是<CN_MOBILE>")
    assert_no_pii_stored()


@pytest.mark.django_db
def test_names_and_descriptions_given_to_the_services_are_redacted(acme):
    workspace = workspace_create(name=f"Shop of {EMAIL}", slug="shop")
    subject = subject_get_or_create(workspace=acme, external_id="u-1", display_name=f"Zhang {MOBILE}")
    agent = agent_create(workspace=acme, name="Desk Bot", description=f"owner {RESIDENT_ID}")
    event = audit_record(
        workspace=acme, actor=Actor(type="operator", id="7", name=EMAIL), action="test.done", reason=f"card {BANK_CARD}"
    )

    assert workspace.name == "Shop of <EMAIL_ADDRESS>"
    assert subject.display_name == "Zhang <CN_MOBILE>"
    assert agent.description == "owner <CN_RESIDENT_ID>"
    assert (event.actor_name, event.reason) == ("<EMAIL_ADDRESS>", "card <CN_BANK_CARD>")
    assert_no_pii_stored()


class _ChattyExtractor:
    """An extractor (an LLM, say) that repeats personal data in what it skips and fails with."""

    name, version = "chatty", "1"

    def extract(self, turn):
        return Extraction(
            proposals=[
                Proposal(
                    kind="profile",
                    category="fact",
                    key="health",
                    value="asthma",
                    sensitive="health",
                    evidence=f"asthma, call {MOBILE}",
                )
            ],
            skipped=[Skip(text=f"mail {EMAIL}", reason="question")],
        )


@pytest.mark.django_db(transaction=True)
def test_what_an_extractor_says_about_a_turn_is_redacted_before_it_is_stored(acme, support_bot, monkeypatch):
    monkeypatch.setattr("apps.memories.ingest.get_extractor", lambda: _ChattyExtractor())
    first, _ = ingest_accept(workspace=acme, external_id="alice", agent=support_bot, turn_id="t-1", user_message="hi")
    second, _ = ingest_accept(workspace=acme, external_id="alice", agent=support_bot, turn_id="t-2", user_message="hi")

    ingest_process(ingest_id=first.id)  # already processed after commit: a no-op
    ingest_fail(ingest_id=second.id, error=f"the model answered {RESIDENT_ID}")

    skipped = Ingest.objects.get(pk=first.id).result["skipped"]
    assert {s["reason"] for s in skipped} == {"question", "sensitive:health"}
    assert "<CN_RESIDENT_ID>" in Ingest.objects.get(pk=second.id).error
    assert_no_pii_stored()
