"""The services refuse personal data in identifiers whoever calls them (API, turns, commands, the
console): nothing is written and the error names the field."""

import pytest
from django.core.management import CommandError, call_command

from apps.accounts.models import Agent, Subject, Workspace
from apps.accounts.services import agent_create, subject_get_or_create, workspace_create
from apps.memories.ingest import ingest_accept
from apps.memories.models import Ingest, Memory
from apps.memories.services import Provenance, episode_record, fact_upsert
from apps.privacy.identifiers import PIIInIdentifier, identifier_refusal
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db

MOBILE, EMAIL, RESIDENT_ID = "13812345678", "zhang.san@qq.com", "11010519491231002X"


@pytest.mark.parametrize("value", [MOBILE, f"user-{EMAIL}", RESIDENT_ID])
def test_identifier_refusal_explains_why_a_value_holding_pii_cannot_be_an_id(value):
    messages = identifier_refusal(value)

    assert messages and "opaque id" in messages[0]
    assert value not in messages[0]


@pytest.mark.parametrize("value", ["", "alice", "s-7", "t-81", "3b9f0c1e-6a52-4c1e-9d1f-2a7c5e0b8d44", "seed-drink-0"])
def test_identifier_refusal_accepts_opaque_ids(value):
    assert identifier_refusal(value) == []


def test_identifier_refusal_counts_a_type_the_pii_policy_rejects_as_pii(settings):
    settings.PII_REJECT_ENTITIES = ["CN_MOBILE"]

    assert identifier_refusal(MOBILE)


def test_it_refuses_to_create_a_subject_whose_external_id_holds_a_phone_number(acme):
    with pytest.raises(PIIInIdentifier) as refused:
        subject_get_or_create(workspace=acme, external_id=MOBILE)

    assert list(refused.value.message_dict) == ["external_id"]
    assert not Subject.objects.exists()


def test_the_fact_and_episode_services_refuse_pii_in_session_and_turn_ids(alice, bot, support_bot):
    with pytest.raises(PIIInIdentifier) as refused:
        fact_upsert(
            subject=alice,
            key="tone",
            value="formal",
            category="preference",
            actor=bot,
            session_id=MOBILE,
            provenance=Provenance(agent=support_bot, turn_id=EMAIL),
        )
    assert set(refused.value.message_dict) == {"session_id", "turn_id"}

    with pytest.raises(PIIInIdentifier):
        episode_record(
            subject=alice,
            text="deployed v2",
            actor=bot,
            provenance=Provenance(agent=support_bot, session_id=RESIDENT_ID),
        )

    assert not Memory.objects.exists()
    assert columns_containing(MOBILE) == columns_containing(EMAIL) == columns_containing(RESIDENT_ID) == []


def test_accepting_a_turn_refuses_pii_in_its_ids_and_creates_no_subject(acme, support_bot):
    with pytest.raises(PIIInIdentifier) as refused:
        ingest_accept(
            workspace=acme,
            external_id="new-person",
            agent=support_bot,
            turn_id=MOBILE,
            user_message="我不吃辣",
            session_id=EMAIL,
        )

    assert set(refused.value.message_dict) == {"turn_id", "session_id"}
    assert not Ingest.objects.exists() and not Subject.objects.exists()


def test_it_refuses_an_agent_name_that_holds_an_email_address(acme):
    with pytest.raises(PIIInIdentifier) as refused:
        agent_create(workspace=acme, name=f"Bot of {EMAIL}")

    assert list(refused.value.message_dict) == ["name"]
    assert not Agent.objects.exists()
    assert columns_containing(EMAIL) == []


def test_create_agent_refuses_a_name_that_holds_a_phone_number(acme):
    with pytest.raises(CommandError, match="opaque id"):
        call_command("create_agent", "--workspace", "acme", "--name", f"Bot {MOBILE}")

    assert not Agent.objects.exists()
    assert columns_containing(MOBILE) == []


def test_it_refuses_a_workspace_slug_that_holds_a_phone_number(db):
    with pytest.raises(PIIInIdentifier):
        workspace_create(name="Acme", slug=f"acme-{MOBILE}")

    assert not Workspace.objects.exists()
