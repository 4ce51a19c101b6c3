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


def test_a_link_for_a_subject_with_a_login_signs_into_that_login(client, api, alice, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw")
    Subject.objects.filter(pk=alice.pk).update(user=user)
    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"].removeprefix("http://testserver")

    client.post(url)

    assert client.get("/me/").wsgi_request.user == user


def test_only_the_link_digest_is_stored(api, alice):
    from tests.dbscan import columns_containing

    url = api.post("/api/v1/subjects/alice/portal-link").json()["url"]
    token = url.rstrip("/").rsplit("/", 1)[-1]
    assert columns_containing(token) == []


def test_portal_links_of_unknown_subjects_are_404(api, db):
    assert api.post("/api/v1/subjects/nobody/portal-link").status_code == 404
