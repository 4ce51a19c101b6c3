import pytest
from django.core.management import CommandError, call_command

from apps.accounts.models import ApiKey
from apps.accounts.services import apikey_authenticate

pytestmark = pytest.mark.django_db


def test_create_agent_prints_a_working_key_once(acme, capsys):
    call_command("create_agent", "--workspace", "acme", "--name", "Travel Bot", "--scopes", "read")

    raw_key = capsys.readouterr().out.strip().splitlines()[-1]
    key = apikey_authenticate(raw_key=raw_key)
    assert key.agent.name == "Travel Bot" and key.scopes == ["read"] and key.workspace == acme


def test_create_agent_for_an_existing_agent_adds_a_key(acme, support_bot):
    call_command("create_agent", "--workspace", "acme", "--name", "Support Bot")
    assert support_bot.api_keys.count() == 1


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--workspace", "nope", "--name", "X"], "No workspace"),
        (["--workspace", "acme", "--name", "X", "--scopes", "admin"], "Scopes must be"),
    ],
)
def test_create_agent_explains_bad_arguments(acme, arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("create_agent", *arguments)


def test_revoke_key_revokes_by_prefix(acme, capsys):
    call_command("create_agent", "--workspace", "acme", "--name", "Travel Bot")
    raw_key = capsys.readouterr().out.strip().splitlines()[-1]
    prefix = ApiKey.objects.get().prefix

    call_command("revoke_key", f"mk_{prefix}")

    assert apikey_authenticate(raw_key=raw_key) is None
    with pytest.raises(CommandError, match="No API key"):
        call_command("revoke_key", "unknown")
