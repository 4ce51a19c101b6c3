"""Webhooks in the console: admins add, edit, switch off and on endpoints, see the secret once, send a
test and redeliver from the delivery log; operators only look; another workspace's endpoints are 404;
bad input is a form error; every change is audited."""

import pytest

from apps.audit.models import AuditEvent
from apps.memories.services import fact_upsert
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from apps.webhooks.services import endpoint_create
from apps.webhooks.signing import verify_signature
from tests.webhooks.conftest import ALL_EVENTS, _local_receivers_allowed, receiver  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(acme, receiver):  # noqa: F811
    return endpoint_create(workspace=acme, url=receiver.url, events=["memory.created"])[0]


@pytest.fixture
def send_a_fact(alice, bot, hook, django_capture_on_commit_callbacks):
    """Alice gets a new fact, announced to the hook (answered as the receiver is told); its delivery."""

    def send() -> WebhookDelivery:
        with django_capture_on_commit_callbacks(execute=True):
            fact_upsert(subject=alice, key="tea", value="oolong", category="preference", actor=bot)
        return WebhookDelivery.objects.get()

    return send


def create(client, url, **fields):
    return client.post(
        "/console/webhooks/",
        {"url": url, "events": ["memory.created", "memory.deleted"], "description": "CRM sync", **fields},
    )


def test_an_admin_adds_an_endpoint_and_sees_its_secret_once(as_adam, acme, receiver):  # noqa: F811
    created = create(as_adam, receiver.url, include_content="on")
    assert created.status_code == 302

    page = as_adam.get(created["Location"])
    secret = page.context["secret"]
    assert secret.startswith("whsec_") and secret in page.content.decode()
    endpoint = WebhookEndpoint.objects.get(workspace=acme)
    assert (endpoint.url, endpoint.events, endpoint.include_content) == (
        receiver.url,
        ["memory.created", "memory.deleted"],
        True,
    )
    assert secret not in str(dict(as_adam.session)) and secret not in str(WebhookEndpoint.objects.values().get())
    again = as_adam.get(created["Location"], follow=True)
    assert secret not in again.content.decode()
    assert AuditEvent.objects.filter(action="webhook.created", actor_type="operator", actor_name="adam").exists()


def test_the_list_shows_endpoints_with_their_state(as_olga, hook, receiver):  # noqa: F811
    page = as_olga.get("/console/webhooks/")

    assert page.status_code == 200
    assert receiver.url in page.content.decode() and "memory.created" in page.content.decode()


@pytest.mark.parametrize(
    "url, message",
    [
        ("not a url", "Enter a valid URL."),
        ("ftp://example.com/hook", "http:// or https://"),
        ("http://10.0.0.8/hook", "not a public address"),
        ("http://169.254.169.254/latest/meta-data", "not a public address"),
        ("http://[::1]:8080/hook", "not a public address"),
        ("http://localhost/hook", "not a public address"),
        ("https://hooks.example.com/zhang.san@qq.com", "personal data"),
    ],
)
def test_a_bad_url_is_a_field_error_not_a_500(as_adam, acme, settings, url, message):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False

    response = create(as_adam, url)

    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors["url"])
    assert not WebhookEndpoint.objects.exists()


def test_personal_data_in_an_endpoints_description_is_stored_redacted(as_adam, acme, receiver):  # noqa: F811
    create(as_adam, receiver.url, description="ask zhang.san@qq.com or 13812345678")

    stored = WebhookEndpoint.objects.get(workspace=acme).description
    assert "zhang.san@qq.com" not in stored and "13812345678" not in stored and "<EMAIL_ADDRESS>" in stored


def test_an_endpoint_needs_at_least_one_known_event(as_adam, receiver):  # noqa: F811
    none = as_adam.post("/console/webhooks/", {"url": receiver.url})
    unknown = as_adam.post("/console/webhooks/", {"url": receiver.url, "events": ["memory.pinned"]})

    assert none.status_code == unknown.status_code == 400
    assert "events" in none.context["form"].errors and "events" in unknown.context["form"].errors


def test_an_admin_edits_the_events_and_content_opt_in(as_adam, hook):
    response = as_adam.post(
        f"/console/webhooks/{hook.pk}/",
        {"url": hook.url, "events": ["memory.corrected"], "include_content": "on", "description": "new"},
    )

    assert response.status_code == 302
    hook.refresh_from_db()
    assert (hook.events, hook.include_content, hook.description) == (["memory.corrected"], True, "new")
    assert AuditEvent.objects.get(action="webhook.updated").after["events"] == ["memory.corrected"]


def test_an_admin_switches_an_endpoint_off_and_on(as_adam, hook):
    as_adam.post(f"/console/webhooks/{hook.pk}/disable")
    hook.refresh_from_db()
    assert hook.enabled is False

    as_adam.post(f"/console/webhooks/{hook.pk}/enable")
    hook.refresh_from_db()
    assert (hook.enabled, hook.consecutive_failures, hook.disabled_reason) == (True, 0, "")
    assert list(
        AuditEvent.objects.filter(action__startswith="webhook.")
        .exclude(action="webhook.created")
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["webhook.disabled", "webhook.enabled"]


def test_rotating_the_secret_shows_the_new_one_once_and_signs_with_it(as_adam, hook, receiver):  # noqa: F811
    rotated = as_adam.post(f"/console/webhooks/{hook.pk}/rotate-secret")
    secret = as_adam.get(rotated["Location"]).context["secret"]

    as_adam.post(f"/console/webhooks/{hook.pk}/test")

    request = receiver.requests[0]
    assert verify_signature(request.body, request.headers["memoryadmin-signature"], secret)
    assert AuditEvent.objects.filter(action="webhook.secret_rotated").exists()


def test_send_test_delivers_a_signed_test_event_and_logs_it(as_adam, hook, receiver):  # noqa: F811
    response = as_adam.post(f"/console/webhooks/{hook.pk}/test", follow=True)

    assert response.status_code == 200
    [request] = receiver.requests
    assert request.json["type"] == "webhook.test" and request.headers["memoryadmin-event"] == "webhook.test"
    assert "200" in response.content.decode()  # the delivery log on the endpoint page
    assert AuditEvent.objects.filter(action="webhook.test_sent").exists()


def test_redeliver_sends_the_same_event_again_from_the_log(as_adam, receiver, send_a_fact):  # noqa: F811
    receiver.answers = [500]
    delivery = send_a_fact()

    response = as_adam.post(f"/console/webhooks/deliveries/{delivery.pk}/redeliver")

    assert response.status_code == 302
    assert len(receiver.requests) == 2 and receiver.requests[0].body == receiver.requests[1].body
    delivery.refresh_from_db()
    assert delivery.state == "delivered"
    assert WebhookAttempt.objects.filter(delivery=delivery, manual=True, status_code=200).exists()
    assert AuditEvent.objects.filter(action="webhook.redelivered").exists()


def test_the_delivery_log_shows_code_latency_error_and_next_retry(as_olga, hook, receiver, send_a_fact):  # noqa: F811
    receiver.answers = [503]
    send_a_fact()

    page = as_olga.get(f"/console/webhooks/{hook.pk}/")
    partial = as_olga.get(f"/console/webhooks/{hook.pk}/", HTTP_HX_REQUEST="true")

    html = page.content.decode()
    assert "503" in html and "HTTP 503" in html and "memory.created" in html and "next try" in html
    assert "<html" not in partial.content.decode() and "503" in partial.content.decode()


def test_operators_who_are_not_admins_cannot_change_webhooks(as_olga, hook, receiver):  # noqa: F811
    calls = [
        lambda: create(as_olga, receiver.url),
        lambda: as_olga.post(f"/console/webhooks/{hook.pk}/", {"url": hook.url, "events": ALL_EVENTS}),
        lambda: as_olga.post(f"/console/webhooks/{hook.pk}/disable"),
        lambda: as_olga.post(f"/console/webhooks/{hook.pk}/rotate-secret"),
        lambda: as_olga.post(f"/console/webhooks/{hook.pk}/test"),
    ]
    assert [call().status_code for call in calls] == [403] * 5
    assert WebhookEndpoint.objects.count() == 1 and receiver.requests == []


def test_another_workspaces_endpoints_and_deliveries_are_404(as_gina, hook, receiver):  # noqa: F811
    calls = [
        lambda: as_gina.get(f"/console/webhooks/{hook.pk}/"),
        lambda: as_gina.post(f"/console/webhooks/{hook.pk}/disable"),
        lambda: as_gina.post(f"/console/webhooks/{hook.pk}/test"),
        lambda: as_gina.post(f"/console/webhooks/{hook.pk}/rotate-secret"),
    ]
    assert [call().status_code for call in calls] == [404] * 4
    assert receiver.url not in as_gina.get("/console/webhooks/").content.decode()
    hook.refresh_from_db()
    assert hook.enabled and receiver.requests == []


def test_another_workspaces_delivery_cannot_be_redelivered(as_gina, receiver, send_a_fact):  # noqa: F811
    delivery = send_a_fact()

    assert as_gina.post(f"/console/webhooks/deliveries/{delivery.pk}/redeliver").status_code == 404
    assert len(receiver.requests) == 1


def test_the_console_nav_links_to_webhooks(as_olga):
    assert 'href="/console/webhooks/"' in as_olga.get("/console/").content.decode()


@pytest.mark.parametrize(
    ("action", "says"),
    [("disable", "nothing more is sent"), ("rotate-secret", "stops verifying at once")],
    ids=["switch-off", "rotate-secret"],
)
def test_switching_off_and_rotating_the_secret_ask_first_and_change_nothing_until_confirmed(
    as_adam, hook, action, says
):
    page = as_adam.get(f"/console/webhooks/{hook.pk}/").content.decode()
    confirm = as_adam.get(f"/console/webhooks/{hook.pk}/{action}")

    assert f'action="/console/webhooks/{hook.pk}/{action}"' in page and 'method="get"' in page
    assert confirm.status_code == 200 and says in confirm.content.decode()
    hook.refresh_from_db()
    assert hook.enabled is True
    assert not AuditEvent.objects.filter(action__in=["webhook.disabled", "webhook.secret_rotated"]).exists()


def test_the_confirm_step_opens_as_a_dialog_with_htmx(as_adam, hook):
    response = as_adam.get(f"/console/webhooks/{hook.pk}/rotate-secret", HTTP_HX_REQUEST="true")

    assert response.status_code == 200 and "<dialog" in response.content.decode()


def test_operators_who_are_not_admins_get_no_confirm_step_either(as_olga, hook):
    assert as_olga.get(f"/console/webhooks/{hook.pk}/disable").status_code == 403
    assert as_olga.get(f"/console/webhooks/{hook.pk}/rotate-secret").status_code == 403


def test_another_workspaces_confirm_steps_are_404_and_show_nothing_of_the_endpoint(as_gina, hook):
    for action in ("disable", "rotate-secret"):
        response = as_gina.get(f"/console/webhooks/{hook.pk}/{action}")
        assert response.status_code == 404 and hook.url not in response.content.decode()
