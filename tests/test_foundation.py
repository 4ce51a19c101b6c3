"""The pieces every other feature stands on: the database, the landing page, the admin, the demo."""

import pytest
from django.core.management import call_command
from django.db import connection

from apps.accounts.models import ApiKey, Subject
from apps.memories.models import Memory
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db


def test_the_database_has_pgvector():
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        assert cursor.fetchone() is not None


def test_the_landing_page_lists_what_to_open_and_the_demo_logins(client):
    response = client.get("/")

    assert response.status_code == 200
    for text in ("/admin/", "alice-demo-pass", "operator-demo-pass"):
        assert text in response.content.decode()


def test_the_health_check_answers_ok(client):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_superusers_see_every_table_in_the_admin_read_only(admin_client, alice):
    assert admin_client.get("/admin/memories/memory/").status_code == 200
    assert admin_client.get(f"/admin/accounts/subject/{alice.pk}/change/").status_code == 200
    assert admin_client.get("/admin/memories/memory/add/").status_code == 403
    assert admin_client.post(f"/admin/accounts/subject/{alice.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Subject.objects.filter(pk=alice.pk).exists()


def test_staff_who_are_not_superusers_see_nothing_in_the_admin(client, django_user_model):
    staff = django_user_model.objects.create_user("sam", password="pw", is_staff=True)
    client.force_login(staff)

    assert client.get("/admin/memories/memory/").status_code == 403


def test_seed_demo_creates_the_demo_once_with_pii_redacted(capsys):
    call_command("seed_demo")
    first = capsys.readouterr().out
    call_command("seed_demo")
    second = capsys.readouterr().out

    assert "API key (shown once" in first and "API key" not in second
    assert "alice-demo-pass" in second
    assert 28 <= Memory.objects.count() <= 40
    assert Memory.objects.filter(status="superseded").exists() and Memory.objects.filter(pinned=True).exists()
    assert Memory.objects.filter(category="constraint", subject__external_id="bob", status="active").count() == 2
    assert ApiKey.objects.count() == 1
    for raw in ("13812345678", "6222020200112233446", "11010519491231002X", "alice.chen@example.com"):
        assert columns_containing(raw) == []
