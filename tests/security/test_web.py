"""Web security: CSP from our own origin only, CSRF on every form, production cookie and HTTPS
settings that pass `check --deploy`, login throttling, and no keys or personal data in logs."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from tests.factories import fact

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def production_env(**extra) -> dict:
    # Only the machine's environment: not the tests' own switches (HTTPS=false, the browser tests'
    # DJANGO_ALLOW_ASYNC_UNSAFE, ...).
    test_switches = (
        "HTTPS",
        "DEBUG",
        "SECRET_KEY",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
        "API_THROTTLE_READ",
        "API_THROTTLE_WRITE",
        "RECALL_ACCESS_ASYNC",
        "RECALL_EMBED_TIMEOUT",
        "TEST_DATABASE_NAME",
        "CELERY_TASK_ALWAYS_EAGER",
    )
    env = {k: v for k, v in os.environ.items() if k not in test_switches}
    env.update(
        DEBUG="false",
        SECRET_KEY="p" * 20 + "Z9!xq-Ru7#kLm2@vB4$wN8%eT6^yH1&dG",
        ALLOWED_HOSTS="memory.example.com",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        **extra,
    )
    return env


def test_production_settings_pass_the_deploy_check():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_cookies_are_secure_and_http_only():
    code = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SESSION_COOKIE_HTTPONLY, s.CSRF_COOKIE_HTTPONLY, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0)"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip().splitlines()[-1].split() == ["True"] * 6, result.stdout + result.stderr


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/api/docs/", "/api/v1/subjects/x/memories"])
def test_every_response_carries_a_content_security_policy_of_our_own_origin(client, url):
    policy = client.get(url)["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy


@pytest.fixture
def alice_client(login_as, alice_user):
    return login_as(alice_user, Client(enforce_csrf_checks=True))


@pytest.fixture
def admin_client_csrf(login_as, adam):
    return login_as(adam, Client(enforce_csrf_checks=True))


def test_every_portal_form_needs_the_csrf_token(alice_client, alice):
    memory = fact(alice, "tea", "oolong")
    for url in [
        f"/me/memories/{memory.id}/pin",
        f"/me/memories/{memory.id}/unpin",
        f"/me/memories/{memory.id}/correct",
        f"/me/memories/{memory.id}/delete",
        "/me/forget",
        "/accounts/logout/",
        "/i18n/setlang/",
    ]:
        assert alice_client.post(url, {"value": "x", "confirmation": "forget everything"}).status_code == 403, url
    assert memory.__class__.objects.get(pk=memory.pk).status == "active"


def test_every_console_form_needs_the_csrf_token(admin_client_csrf, alice, support_bot):
    from apps.accounts.services import apikey_issue

    memory = fact(alice, "tea", "oolong")
    key, _ = apikey_issue(agent=support_bot, scopes=["read"])
    for url in [
        f"/console/memories/{memory.id}/correct",
        f"/console/memories/{memory.id}/delete",
        "/console/agents/",
        f"/console/agents/{support_bot.pk}/keys",
        f"/console/keys/{key.pk}/revoke",
        f"/console/keys/{key.pk}/rotate",
        "/console/settings/retention",
        "/console/workspace",
    ]:
        assert admin_client_csrf.post(url, {"reason": "r", "name": "n"}).status_code == 403, url


def test_the_sign_in_form_needs_the_csrf_token(db):
    assert (
        Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"}).status_code == 403
    )


def test_repeated_wrong_passwords_lock_the_account_for_a_while(client, django_user_model, settings):
    django_user_model.objects.create_user("alice", password="right-pass")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})

    locked = client.post("/accounts/login/", {"username": "alice", "password": "right-pass"})

    assert locked.status_code == 429 and "Too many sign-in attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_api_keys_and_personal_data_never_reach_the_logs(api, caplog):
    caplog.set_level(logging.DEBUG)
    raw_secret = api.raw_key.split("_", 2)[2]
    with override_settings(DEBUG=True):  # SQL statements are logged too
        api.post(
            "/api/v1/subjects/alice/facts",
            {"key": "contact", "value": "call 13812345678 or a.b@example.com", "category": "fact"},
            format="json",
        )
        api.post(
            "/api/v1/subjects/alice/turns",
            {"turn_id": "t-1", "user_message": "我的身份证 11010519491231002X"},
            format="json",
        )
        api.post("/api/v1/subjects/alice/recall", {"query": "13812345678"}, format="json")
        Client().get("/api/v1/subjects/alice/memories", HTTP_AUTHORIZATION=f"Bearer {api.raw_key}x")

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert logged, "nothing was logged: the test would prove nothing"
    for secret in (raw_secret, "13812345678", "a.b@example.com", "11010519491231002X"):
        assert secret not in logged, secret
