"""First run: `create_workspace` and `add_operator` make the first tenant and its operators from the
shell, through the services, audited; every mistake is a clear error that leaves nothing behind."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command, execute_from_command_line

from apps.accounts.models import Membership, Workspace
from apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-and-unusual-passphrase-7"


@pytest.fixture
def bob(db):
    """Bob has a login and operates nothing yet."""
    return User.objects.create_user("bob", password="bob-pass-123456")


def test_create_workspace_makes_the_workspace_and_audits_it(capsys):
    call_command("create_workspace", "--name", "Acme Support", "--slug", "acme")

    workspace = Workspace.objects.get(slug="acme")
    assert workspace.name == "Acme Support"
    event = AuditEvent.objects.get(action="workspace.created")
    assert (event.workspace, event.actor_type, event.after["slug"]) == (workspace, "system", "acme")
    assert "acme" in capsys.readouterr().out


def test_create_workspace_stores_personal_data_in_the_name_redacted():
    call_command("create_workspace", "--name", "张三 13812345678 的团队", "--slug", "zhang")

    name = Workspace.objects.get(slug="zhang").name
    assert "13812345678" not in name and "<CN_MOBILE>" in name
    assert "13812345678" not in str(AuditEvent.objects.get(action="workspace.created").after)


def test_create_workspace_refuses_a_duplicate_slug():
    call_command("create_workspace", "--name", "Acme", "--slug", "acme")

    with pytest.raises(CommandError, match="slug 'acme' is taken"):
        call_command("create_workspace", "--name", "Acme again", "--slug", "acme")
    assert Workspace.objects.count() == 1
    assert AuditEvent.objects.filter(action="workspace.created").count() == 1


def test_create_workspace_refuses_a_slug_that_is_not_a_slug():
    with pytest.raises(CommandError, match="slug"):
        call_command("create_workspace", "--name", "Acme", "--slug", "acme support!")
    assert not Workspace.objects.exists()


def test_a_refused_command_exits_non_zero_with_its_message(capsys):
    call_command("create_workspace", "--name", "Acme", "--slug", "acme")

    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "create_workspace", "--name", "Acme", "--slug", "acme"])

    assert exited.value.code != 0
    assert "slug 'acme' is taken" in capsys.readouterr().err


def test_add_operator_makes_an_existing_user_an_operator_of_the_workspace(acme, bob):
    call_command("add_operator", "--workspace", "acme", "--user", "bob")

    membership = Membership.objects.get(user=bob)
    assert (membership.workspace, membership.role) == (acme, "operator")
    event = AuditEvent.objects.get(action="operator.added")
    assert (event.workspace, event.actor_type, event.after) == (acme, "system", {"user": "bob", "role": "operator"})


def test_add_operator_can_make_an_admin(acme, bob):
    call_command("add_operator", "--workspace", "acme", "--user", "bob", "--role", "admin")

    assert Membership.objects.get(user=bob).role == "admin"


def test_add_operator_again_with_another_role_changes_the_role(acme, bob):
    call_command("add_operator", "--workspace", "acme", "--user", "bob")
    call_command("add_operator", "--workspace", "acme", "--user", "bob", "--role", "admin")

    assert list(Membership.objects.filter(user=bob).values_list("role", flat=True)) == ["admin"]
    event = AuditEvent.objects.get(action="operator.role_changed")
    assert (event.before, event.after) == ({"user": "bob", "role": "operator"}, {"user": "bob", "role": "admin"})


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--workspace", "nope", "--user", "bob"], "No workspace with slug 'nope'"),
        (["--workspace", "acme", "--user", "charlie"], "No user 'charlie'.*--create"),
        (["--workspace", "acme", "--user", "bob", "--role", "owner"], "invalid choice: 'owner'"),
        (
            ["--workspace", "acme", "--user", "bob", "--create", "--email", "bob@example.com", "--password-stdin"],
            "User 'bob' already exists",
        ),
        (["--workspace", "acme", "--user", "charlie", "--create"], "--email"),
    ],
)
def test_add_operator_explains_bad_arguments_and_writes_nothing(acme, bob, arguments, message, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))

    with pytest.raises(CommandError, match=message):
        call_command("add_operator", *arguments)

    assert not Membership.objects.exists()
    assert list(User.objects.values_list("username", flat=True)) == ["bob"]
    assert not AuditEvent.objects.filter(action__startswith="operator.").exists()


def test_add_operator_creates_a_login_with_the_password_from_stdin(acme, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))

    call_command(
        "add_operator",
        "--workspace",
        "acme",
        "--user",
        "charlie",
        "--role",
        "admin",
        "--create",
        "--email",
        "charlie@example.com",
        "--password-stdin",
    )

    charlie = User.objects.get(username="charlie")
    assert charlie.check_password(PASSWORD) and charlie.email == "charlie@example.com"
    assert Membership.objects.get(user=charlie).role == "admin"
    assert PASSWORD not in capsys.readouterr().out
    event = AuditEvent.objects.get(action="operator.added")
    assert event.after == {"user": "charlie", "role": "admin", "login_created": True}
    assert "charlie@example.com" not in str(event.after)


def test_add_operator_prompts_for_the_password_twice(acme, monkeypatch):
    answers = iter([PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))

    call_command("add_operator", "--workspace", "acme", "--user", "charlie", "--create", "--email", "c@example.com")

    assert User.objects.get(username="charlie").check_password(PASSWORD)


def test_add_operator_refuses_passwords_that_do_not_match(acme, monkeypatch):
    answers = iter([PASSWORD, PASSWORD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))

    with pytest.raises(CommandError, match="do not match"):
        call_command("add_operator", "--workspace", "acme", "--user", "charlie", "--create", "--email", "c@example.com")
    assert not User.objects.filter(username="charlie").exists()


def test_add_operator_refuses_a_weak_password_and_creates_no_login(acme, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("password\n"))

    with pytest.raises(CommandError, match="too common|too short"):
        call_command(
            "add_operator",
            "--workspace",
            "acme",
            "--user",
            "charlie",
            "--create",
            "--email",
            "c@example.com",
            "--password-stdin",
        )

    assert not User.objects.filter(username="charlie").exists() and not Membership.objects.exists()


def test_add_operator_with_create_for_an_unknown_workspace_creates_no_login(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))

    with pytest.raises(CommandError, match="No workspace"):
        call_command(
            "add_operator",
            "--workspace",
            "nope",
            "--user",
            "charlie",
            "--create",
            "--email",
            "c@example.com",
            "--password-stdin",
        )

    assert not User.objects.filter(username="charlie").exists()


def test_the_first_operator_can_sign_in_to_the_console(client, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    call_command("create_workspace", "--name", "Acme", "--slug", "acme")
    call_command(
        "add_operator",
        "--workspace",
        "acme",
        "--user",
        "charlie",
        "--role",
        "admin",
        "--create",
        "--email",
        "c@example.com",
        "--password-stdin",
    )

    signed_in = client.post(
        "/accounts/login/", {"username": "charlie", "password": PASSWORD, "next": "/console/"}, follow=True
    )
    assert signed_in.status_code == 200 and signed_in.request["PATH_INFO"] == "/console/"
