"""Superusers run tenancy from the console: create a workspace, add an existing login as an operator
or invite a new one with a one-time link to choose a password. Nobody else can."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.accounts.models import Membership, Workspace
from apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db
User = get_user_model()
PAGE = "/console/workspaces/"


@pytest.fixture
def sue(db):
    """Sue is the superuser who set the service up; she operates no workspace herself."""
    return User.objects.create_superuser("sue", "sue@example.com", "sue-pass-123456")


@pytest.fixture
def bob(db):
    """Bob has a login and operates nothing yet."""
    return User.objects.create_user("bob", password="bob-pass-123456")


@pytest.fixture
def as_sue(login_as, sue):
    return login_as(sue)


def test_it_lists_every_workspace_with_its_operators(as_sue, acme, globex, adam, gina):
    page = as_sue.get(PAGE).content.decode()

    assert "Acme" in page and "Globex" in page
    assert "adam" in page and "gina" in page


def test_it_creates_a_workspace(as_sue):
    response = as_sue.post(PAGE, {"action": "workspace", "name": "Initech", "slug": "initech"})

    assert response.status_code == 302
    assert Workspace.objects.get(slug="initech").name == "Initech"
    event = AuditEvent.objects.get(action="workspace.created")
    assert (event.actor_type, event.actor_name) == ("operator", "sue")
    assert "Initech" in as_sue.get(response["Location"]).content.decode()


def test_it_explains_a_taken_slug_and_creates_nothing(as_sue, acme):
    response = as_sue.post(PAGE, {"action": "workspace", "name": "Acme 2", "slug": "acme"})

    assert response.status_code == 400
    assert "is taken" in response.content.decode()
    assert Workspace.objects.count() == 1


def test_it_adds_an_existing_login_as_an_operator(as_sue, acme, bob):
    response = as_sue.post(PAGE, {"action": "operator", "workspace": acme.pk, "username": "bob", "role": "admin"})

    assert response.status_code == 302
    assert Membership.objects.get(user=bob).role == "admin"
    event = AuditEvent.objects.get(action="operator.added")
    assert (event.workspace, event.actor_name) == (acme, "sue")


def test_it_invites_a_new_operator_with_a_link_shown_once(as_sue, acme):
    response = as_sue.post(
        PAGE,
        {
            "action": "operator",
            "workspace": acme.pk,
            "username": "charlie",
            "email": "charlie@example.com",
            "role": "operator",
        },
    )

    assert response.status_code == 302
    charlie = User.objects.get(username="charlie")
    assert charlie.email == "charlie@example.com" and not charlie.has_usable_password()
    assert Membership.objects.get(user=charlie).workspace == acme
    invited = as_sue.get(response["Location"])
    link = invited.context["link"]
    assert "/accounts/reset/" in link and link in invited.content.decode()
    assert link not in as_sue.get(response["Location"], follow=True).content.decode()  # once

    chooser = Client()
    form = chooser.get(link, follow=True)
    assert form.status_code == 200
    chosen = chooser.post(
        form.request["PATH_INFO"],
        {"new_password1": "a-long-and-unusual-passphrase-7", "new_password2": "a-long-and-unusual-passphrase-7"},
    )
    assert chosen.status_code == 302
    charlie.refresh_from_db()
    assert charlie.check_password("a-long-and-unusual-passphrase-7")


def test_it_asks_for_an_email_to_invite_someone_without_a_login(as_sue, acme):
    response = as_sue.post(
        PAGE, {"action": "operator", "workspace": acme.pk, "username": "charlie", "role": "operator"}
    )

    assert response.status_code == 400
    assert "No login with this username" in response.content.decode()
    assert not User.objects.filter(username="charlie").exists() and not Membership.objects.exists()


def test_it_refuses_an_unknown_role(as_sue, acme, bob):
    response = as_sue.post(PAGE, {"action": "operator", "workspace": acme.pk, "username": "bob", "role": "owner"})

    assert response.status_code == 400
    assert not Membership.objects.exists()


def test_it_answers_htmx_with_the_workspace_list_only(as_sue, acme):
    response = as_sue.get(PAGE, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "Acme" in response.content.decode() and "<html" not in response.content.decode()


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_is_forbidden_to_a_workspace_admin_who_is_not_a_superuser(as_adam, method):
    response = getattr(as_adam, method)(PAGE, {"action": "workspace", "name": "Mine", "slug": "mine"})

    assert response.status_code == 403
    assert not Workspace.objects.filter(slug="mine").exists()


def test_it_is_forbidden_to_an_end_user(as_alice):
    assert as_alice.get(PAGE).status_code == 403


def test_it_sends_strangers_to_sign_in(client, db):
    response = client.get(PAGE)

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_rejects_a_post_without_the_csrf_token(login_as, sue):
    client = login_as(sue, Client(enforce_csrf_checks=True))

    response = client.post(PAGE, {"action": "workspace", "name": "Initech", "slug": "initech"})

    assert response.status_code == 403
    assert not Workspace.objects.filter(slug="initech").exists()


def test_the_console_nav_links_superusers_to_workspaces(as_sue, acme, sue):
    Membership.objects.create(workspace=acme, user=sue, role=Membership.Role.ADMIN)

    assert f'href="{PAGE}"' in as_sue.get("/console/").content.decode()
