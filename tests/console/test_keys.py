"""A new key is shown once: issuing or rotating redirects to a page that shows it from the session a
single time (reloading issues no other key), and a revoked key cannot be rotated back to life."""

import pytest

from apps.accounts.models import ApiKey
from apps.accounts.services import apikey_issue, apikey_revoke

pytestmark = pytest.mark.django_db


def test_issuing_a_key_redirects_to_a_page_that_shows_it_once(as_adam, support_bot):
    issued = as_adam.post(f"/console/agents/{support_bot.pk}/keys", {"scopes": ["read"]})
    assert issued.status_code == 302
    raw_key = as_adam.get(issued["Location"]).context["raw_key"]
    assert raw_key.startswith("mk_")

    reloaded = as_adam.get(issued["Location"], follow=True)

    assert raw_key not in reloaded.content.decode() and "shown only once" in reloaded.content.decode()
    assert ApiKey.objects.filter(agent=support_bot).count() == 1


def test_rotating_a_key_redirects_to_the_page_that_shows_the_new_one_once(as_adam, support_bot):
    key, _ = apikey_issue(agent=support_bot, scopes=["read", "write"])

    rotated = as_adam.post(f"/console/keys/{key.pk}/rotate")
    assert rotated.status_code == 302
    page = as_adam.get(rotated["Location"])
    assert page.context["key"].scopes == ["read", "write"] and page.context["raw_key"] in page.content.decode()

    as_adam.get(rotated["Location"])
    assert ApiKey.objects.filter(agent=support_bot).count() == 2


def test_the_raw_key_does_not_stay_in_the_session_once_shown(as_adam, support_bot):
    issued = as_adam.post(f"/console/agents/{support_bot.pk}/keys", {"scopes": ["read"]})
    raw_key = as_adam.get(issued["Location"]).context["raw_key"]

    assert raw_key not in str(dict(as_adam.session))


def test_rotating_a_revoked_key_is_refused_with_a_message(as_adam, support_bot):
    key, _ = apikey_issue(agent=support_bot, scopes=["read"])
    apikey_revoke(key=key)

    response = as_adam.post(f"/console/keys/{key.pk}/rotate", follow=True)

    assert "is revoked" in response.content.decode()
    assert ApiKey.objects.filter(agent=support_bot).count() == 1
