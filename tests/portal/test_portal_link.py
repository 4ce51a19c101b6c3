"""An agent hands a person a single-use sign-in link, valid for 15 minutes."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounts.models import PortalLink, Subject

pytestmark = pytest.mark.django_db


@pytest.fixture
def link_url(api, alice):
    response = api.post("/api/v1/subjects/alice/portal-link")
    assert response.status_code == 201
    assert response.json()["expires_at"]
    return response.json()["url"].removeprefix("http://testserver")


def test_a_link_asks_first_then_signs_the_person_in_creating_their_login(client, link_url, alice):
    page = client.get(link_url)
    assert page.status_code == 200 and "This link signs you in as Alice" in page.content.decode()
    assert PortalLink.objects.get().used_at is None  # a link preview must not use it up

    response = client.post(link_url)

    assert response.status_code == 302 and response["Location"] == "/me/"
    alice.refresh_from_db()
    assert alice.user is not None and not alice.user.has_usable_password()
    assert client.get("/me/").status_code == 200


def test_a_link_works_only_once(client, link_url):
    client.post(link_url)
    other = type(client)()

    response = other.post(link_url)

    assert response.status_code == 410 and "already used" in response.content.decode()
    assert other.get(link_url).status_code == 410


def test_an_expired_link_says_so(client, link_url):
    PortalLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    response = client.post(link_url)

    assert response.status_code == 410 and "has expired" in response.content.decode()
    assert client.get("/me/").status_code == 302  # still signed out


def test_a_made_up_link_is_not_valid(client, db):
    assert client.get("/me/link/made-up-token/").status_code == 404


def test_a_link_for_a_subject_with_a_login_signs_into_that_login(client, api, alice_user):
    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")

    client.post(url)

    assert client.get("/me/").wsgi_request.user == alice_user


def test_only_the_link_digest_is_stored(api, alice):
    from tests.dbscan import columns_containing

    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"]
    token = url.rstrip("/").rsplit("/", 1)[-1]
    assert columns_containing(token) == []


def test_portal_links_of_unknown_subjects_are_404(api, db):
    assert api.post("/api/v1/subjects/nobody/portal-link").status_code == 404


# --- an agent key must never become an operator's or admin's browser session -------------------


def _give_alice_a_login(alice, django_user_model, **flags):
    user = django_user_model.objects.create_user("alice", password="alice-pass", **flags)
    Subject.objects.filter(pk=alice.pk).update(user=user)
    return user


@pytest.mark.parametrize("privilege", ["operator of another workspace", "staff", "superuser"])
def test_an_agent_cannot_get_a_link_that_signs_in_an_operator_or_admin(
    api, alice, globex, django_user_model, privilege
):
    from apps.accounts.models import Membership
    from apps.audit.models import AuditEvent

    user = _give_alice_a_login(
        alice, django_user_model, is_staff=privilege == "staff", is_superuser=privilege == "superuser"
    )
    if privilege.startswith("operator"):
        Membership.objects.create(workspace=globex, user=user, role=Membership.Role.ADMIN)

    response = api.post("/api/v1/subjects/alice/portal-link")

    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "portal_link_refused" and "operator" in error["message"]
    assert not PortalLink.objects.exists()
    event = AuditEvent.objects.get(action="portallink.refused")
    assert (event.actor_name, event.subject_id) == ("Support Bot", alice.pk)


def test_a_link_made_before_its_login_became_an_operator_does_not_sign_in(client, api, alice, acme, django_user_model):
    from apps.accounts.models import Membership
    from apps.audit.models import AuditEvent

    user = _give_alice_a_login(alice, django_user_model)
    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")
    Membership.objects.create(workspace=acme, user=user, role=Membership.Role.OPERATOR)

    response = client.post(url)

    assert response.status_code == 403 and "sign in with your password" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert PortalLink.objects.get().used_at is not None  # burnt: it can never sign anyone in
    assert AuditEvent.objects.filter(action="portallink.refused", subject=alice).count() == 1


def test_a_session_started_by_a_link_cannot_open_the_console_or_the_admin(
    client, link_url, alice, acme, django_user_model
):
    from apps.accounts.models import Membership

    client.post(link_url)
    alice.refresh_from_db()
    Membership.objects.create(workspace=acme, user=alice.user, role=Membership.Role.ADMIN)
    django_user_model.objects.filter(pk=alice.user_id).update(is_staff=True, is_superuser=True)

    console = client.get("/console/")
    admin = client.get("/admin/")

    assert console.status_code == 403 and "sign in with your password" in console.content.decode()
    assert admin.status_code == 302 and admin["Location"].startswith("/admin/login/")
    assert client.get(admin["Location"]).status_code == 200  # the sign-in page says why, it does not let in
    assert client.get("/admin/memories/memory/").status_code == 302
    assert client.get("/me/").status_code == 200  # the portal is what the link is for


def test_signing_in_with_a_password_ends_the_portal_only_session(client, link_url, alice, acme):
    from apps.accounts.models import Membership

    client.post(link_url)
    alice.refresh_from_db()
    alice.user.set_password("alice-pass")
    alice.user.save()
    Membership.objects.create(workspace=acme, user=alice.user, role=Membership.Role.OPERATOR)

    client.post("/accounts/login/", {"username": alice.user.username, "password": "alice-pass"})

    assert client.get("/console/").status_code == 200


def test_a_normal_subject_still_gets_in_with_a_link(client, api, alice, django_user_model):
    user = _give_alice_a_login(alice, django_user_model)
    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")

    assert client.post(url).status_code == 302
    assert client.get("/me/").wsgi_request.user == user


def test_a_new_link_revokes_the_older_unused_ones(client, api, alice):
    first = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")
    second = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")

    assert client.post(first).status_code == 410
    assert "_auth_user_id" not in client.session
    assert client.post(second).status_code == 302
