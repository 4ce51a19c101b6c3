import pytest
from django.core.exceptions import ValidationError

from apps.accounts.models import ApiKey
from apps.accounts.selectors import apikey_by_prefix
from apps.accounts.services import apikey_authenticate, apikey_issue, apikey_revoke
from tests.dbscan import columns_containing
from tests.factories import field_values

pytestmark = pytest.mark.django_db


def test_an_issued_key_authenticates_its_agent_and_is_stored_only_hashed(support_bot):
    key, raw = apikey_issue(agent=support_bot, scopes=["read", "write"])

    assert apikey_authenticate(raw_key=raw) == key
    assert key.scopes == ["read", "write"] and raw.startswith(f"mk_{key.prefix}_")
    assert columns_containing(raw.split("_", 2)[2]) == []
    key.refresh_from_db()
    assert key.last_used_at is not None


@pytest.mark.parametrize(
    "tamper",
    [
        lambda raw: raw[:-1] + ("A" if raw[-1] != "A" else "B"),
        lambda raw: "nonsense",
        lambda raw: raw.replace("mk_", "xx_"),
    ],
)
def test_a_wrong_key_does_not_authenticate(support_bot, tamper):
    _, raw = apikey_issue(agent=support_bot, scopes=["read"])
    assert apikey_authenticate(raw_key=tamper(raw)) is None


def test_a_revoked_key_no_longer_authenticates(support_bot):
    key, raw = apikey_issue(agent=support_bot, scopes=["read"])
    apikey_revoke(key=key)
    assert apikey_authenticate(raw_key=raw) is None


def test_scopes_must_be_known(support_bot):
    with pytest.raises(ValidationError):
        apikey_issue(agent=support_bot, scopes=["admin"])
    assert not ApiKey.objects.exists()


def test_a_revoked_key_cannot_be_rotated(support_bot):
    from apps.accounts.services import apikey_rotate
    from apps.audit.models import AuditEvent
    from apps.audit.services import Actor

    key, _ = apikey_issue(agent=support_bot, scopes=["read"])
    apikey_revoke(key=key)

    with pytest.raises(ValidationError, match="revoked"):
        apikey_rotate(key=key, actor=Actor.system())
    assert ApiKey.objects.count() == 1 and not AuditEvent.objects.filter(action="apikey.rotated").exists()


def test_a_key_is_read_with_the_same_fields_agent_and_workspace_as_the_orm_reads_them(
    support_bot, django_assert_num_queries
):
    issued, raw = apikey_issue(agent=support_bot, scopes=["read"])
    apikey_authenticate(raw_key=raw)  # marks it used, so that every field has a value
    orm = ApiKey.objects.select_related("agent", "workspace").get(pk=issued.pk)

    with django_assert_num_queries(1):
        key = apikey_by_prefix(prefix=issued.prefix)
        assert key is not None
        assert (field_values(key), field_values(key.agent), field_values(key.workspace)) == (
            field_values(orm),
            field_values(orm.agent),
            field_values(orm.workspace),
        )
    assert apikey_by_prefix(prefix="nosuchprefix") is None
