"""Attacks on sessions and keys against a live server, over plain HTTP (urllib), the way an attacker
holding an agent's API key would try them:

- a key of workspace A asks for a portal link for a subject whose login operates workspace B, or a
  link made earlier is used after that login became an operator: no session, console or admin;
- a write-only key tries to read memories through the answers of every write endpoint;
- subject ids with bidi controls try to get stored.
"""

from urllib.parse import quote

import pytest

from apps.accounts.models import Agent, Membership, PortalLink, Subject, Workspace
from apps.accounts.services import apikey_issue
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.memories.models import Memory
from apps.memories.services import fact_upsert
from tests.factories import console_user
from tests.security.live_http import Answer, LiveClient

SECRET = "prefers-oolong-tea"


@pytest.fixture
def world(live_server, transactional_db, django_user_model):
    """Acme (A) with Support Bot's keys and subject alice; Globex (B), which olga operates."""
    acme = Workspace.objects.create(name="Acme", slug="acme")
    globex = Workspace.objects.create(name="Globex", slug="globex")
    bot = Agent.objects.create(workspace=acme, name="Support Bot")
    _, read_write = apikey_issue(agent=bot, scopes=["read", "write"])
    _, write_only = apikey_issue(agent=bot, scopes=["write"])
    alice = Subject.objects.create(workspace=acme, external_id="alice")
    olga = console_user(globex, "olga", Membership.Role.ADMIN)
    return {
        "url": live_server.url,
        "acme": acme,
        "alice": alice,
        "olga": olga,
        "agent": LiveClient(live_server.url, key=read_write, prefix="/api/v1/"),
        "write_only": LiveClient(live_server.url, key=write_only, prefix="/api/v1/"),
    }


# --- portal links ------------------------------------------------------------------------------


def test_a_key_of_one_workspace_cannot_get_a_session_as_an_operator_of_another(world):
    attacker = world["agent"]
    victim = Subject.objects.create(workspace=world["acme"], external_id="olga-as-subject", user=world["olga"])

    answer = attacker("POST", f"subjects/{victim.external_id}/portal-link")

    assert answer.status == 409 and answer.json()["error"]["code"] == "portal_link_refused"
    assert "url" not in answer.text and "sessionid" not in answer.headers.get("Set-Cookie", "")
    assert not PortalLink.objects.exists()
    assert AuditEvent.objects.filter(action="portallink.refused", subject=victim).exists()


@pytest.mark.parametrize("flag", ["is_staff", "is_superuser"])
def test_a_key_cannot_get_a_session_as_staff_or_a_superuser(world, django_user_model, flag):
    admin = django_user_model.objects.create_user("root", password="root-pass", **{flag: True})
    Subject.objects.create(workspace=world["acme"], external_id="root-as-subject", user=admin)

    assert world["agent"]("POST", "subjects/root-as-subject/portal-link").status == 409


def test_a_link_made_before_its_login_became_an_operator_signs_nobody_in(world):
    alice = world["alice"]
    path = world["agent"]("POST", "subjects/alice/portal-link").json()["url"].removeprefix(world["url"])
    alice.user = world["olga"]  # before anyone clicks, the subject's login turns out to be Globex's admin
    alice.save()
    browser = LiveClient(world["url"])

    answer = browser.post_form_of(path)

    assert answer.status == 403 and "sign in with your password" in answer.text
    assert browser.session_cookie() is None
    assert browser.request("GET", "/console/").headers["Location"].startswith("/accounts/login/")
    assert browser.request("GET", "/admin/").headers["Location"].startswith("/admin/login/")
    assert browser.request("GET", path).status == 410  # used up


def test_a_person_signed_in_by_a_link_gets_the_portal_only(world):
    url = world["agent"]("POST", "subjects/alice/portal-link").json()["url"].removeprefix(world["url"])
    browser = LiveClient(world["url"])

    signed_in = browser.post_form_of(url)

    assert signed_in.status == 302 and signed_in.headers["Location"] == "/me/"
    assert browser.request("GET", "/me/").status == 200
    # Even if that login is made an operator and a superuser later, the link's session stays a portal one.
    user = Subject.objects.get(pk=world["alice"].pk).user
    Membership.objects.create(workspace=world["acme"], user=user, role=Membership.Role.ADMIN)
    user.__class__.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    console = browser.request("GET", "/console/")
    assert console.status == 403 and "sign in with your password" in console.text
    admin = browser.request("GET", "/admin/memories/memory/")
    assert admin.status == 302 and admin.headers["Location"].startswith("/admin/login/")


def test_an_older_unused_link_stops_working_when_a_new_one_is_made(world):
    first = world["agent"]("POST", "subjects/alice/portal-link").json()["url"].removeprefix(world["url"])
    second = world["agent"]("POST", "subjects/alice/portal-link").json()["url"].removeprefix(world["url"])
    browser = LiveClient(world["url"])

    assert browser.request("GET", first).status == 410
    assert browser.post_form_of(second).status == 302


# --- a write-only key reads nothing ------------------------------------------------------------


def assert_nothing_read(answer: Answer):
    assert answer.status < 300, (answer.status, answer.text)
    assert SECRET not in answer.text
    if answer.text:
        body = answer.json()
        assert not {"value", "text", "key", "source", "excerpt", "metadata", "memory_block"} & body.keys(), body


def test_no_write_endpoint_answers_a_write_only_key_with_a_memory(world):
    write_only = world["write_only"]
    existing = fact_upsert(
        subject=world["alice"], key="drink", value=SECRET, category="preference", actor=Actor.system()
    ).memory

    fact = write_only(
        "POST",
        "subjects/alice/facts",
        {"key": "tea", "value": SECRET, "category": "preference"},
        **{"Idempotency-Key": "k-1"},
    )
    replay = write_only(
        "POST",
        "subjects/alice/facts",
        {"key": "tea", "value": SECRET, "category": "preference"},
        **{"Idempotency-Key": "k-1"},
    )
    episode = write_only("POST", "subjects/alice/episodes", {"text": f"said {SECRET}"})
    same_again = write_only("POST", "subjects/alice/facts", {"key": "drink", "value": SECRET, "category": "preference"})
    corrected = write_only("PATCH", f"memories/{existing.id}", {"value": f"{SECRET} v2"})
    current = Memory.objects.get(lineage=existing.lineage, status="active")
    pinned = write_only("POST", f"memories/{current.id}/pin")
    unpinned = write_only("POST", f"memories/{current.id}/unpin")
    turn = write_only("POST", "subjects/alice/turns", {"turn_id": "t-1", "user_message": f"我喜欢 {SECRET}"})

    for answer in (fact, replay, episode, same_again, corrected, pinned, unpinned, turn):
        assert_nothing_read(answer)
    assert replay.json()["replayed"] is True and same_again.json()["outcome"] == "unchanged"
    assert corrected.json()["version"] == 2 and pinned.json()["pinned"] is True


def test_a_write_only_key_cannot_read_any_other_way(world):
    write_only = world["write_only"]
    memory = fact_upsert(
        subject=world["alice"], key="drink", value=SECRET, category="preference", actor=Actor.system()
    ).memory

    for method, path, body in [
        ("GET", "subjects/alice/memories", None),
        ("GET", "subjects/alice/export", None),
        ("GET", "subjects/alice", None),
        ("GET", f"memories/{memory.id}", None),
        ("GET", f"memories/{memory.id}/history", None),
        ("POST", "subjects/alice/recall", {"query": "tea"}),
    ]:
        answer = write_only(method, path, body)
        assert answer.status == 403 and SECRET not in answer.text, (path, answer.status)


def test_a_read_write_key_still_gets_the_memory(world):
    answer = world["agent"]("POST", "subjects/alice/facts", {"key": "tea", "value": SECRET, "category": "preference"})

    assert answer.status == 201 and answer.json()["value"] == SECRET
    assert "no-store" in answer.headers["Cache-Control"]


# --- subject ids that do not read as what they are ---------------------------------------------


@pytest.mark.parametrize(
    "char",
    ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\x7f", "\u200b"],
    ids=lambda c: f"U+{ord(c):04X}",
)
def test_subject_ids_with_bidi_or_control_characters_are_refused(world, char):
    agent, external_id = world["agent"], quote(f"alice{char}gnp.exe")

    answers = [
        agent("POST", f"subjects/{external_id}/facts", {"key": "tea", "value": "oolong", "category": "preference"}),
        agent("POST", f"subjects/{external_id}/turns", {"turn_id": "t-1", "user_message": "我不吃辣"}),
        agent("POST", f"subjects/{external_id}/portal-link"),
        agent("GET", f"subjects/{external_id}/memories"),
    ]

    for answer in answers:
        assert answer.status == 400, answer.text
        assert "external_id" in answer.json()["error"]["fields"]
    assert list(Subject.objects.values_list("external_id", flat=True)) == ["alice"]
