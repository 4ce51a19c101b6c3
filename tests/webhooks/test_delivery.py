"""Webhooks, end to end against a real local receiver: what is sent for each change, signed with the
endpoint's secret, without memory content unless the endpoint opted in; retried with backoff after a
failing answer, the endpoint switched off after repeated failures; each workspace hears only its own."""

import time

import pytest

from apps.audit.models import AuditEvent
from apps.memories.ingest import ingest_accept, ingest_fail, ingest_process
from apps.memories.services import episode_record, fact_upsert, memory_correct, memory_forget, subject_forget
from apps.webhooks.delivery import retry_delay, retry_due
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from apps.webhooks.services import endpoint_create
from apps.webhooks.signing import verify_signature
from tests.webhooks.conftest import ALL_EVENTS

pytestmark = pytest.mark.django_db

PHONE = "13812345678"


def write_tea(alice, bot, value="oolong"):
    return fact_upsert(subject=alice, key="tea", value=value, category="preference", actor=bot).memory


def test_a_new_memory_is_announced_signed_with_ids_and_no_content(alice, bot, hook, receiver, on_commit):
    memory = on_commit(lambda: write_tea(alice, bot, f"oolong, call {PHONE}"))

    [request] = receiver.requests
    assert request.headers["memoryadmin-event"] == "memory.created"
    assert verify_signature(request.body, request.headers["memoryadmin-signature"], hook.secret)
    body = request.json
    assert body["type"] == "memory.created" and body["workspace"] == "acme"
    assert body["id"] == request.headers["memoryadmin-event-id"]
    assert body["data"]["subject"] == "alice"
    assert body["data"]["memory"] | {"created_at": None} == {
        "id": str(memory.id),
        "lineage": str(memory.lineage),
        "version": 1,
        "supersedes": None,
        "kind": "profile",
        "category": "preference",
        "key": "tea",
        "status": "active",
        "created_at": None,
    }
    assert "oolong" not in request.body.decode() and PHONE not in request.body.decode()


def test_an_endpoint_that_opts_in_gets_the_stored_redacted_text_and_value(acme, alice, bot, receiver, on_commit):
    endpoint_create(workspace=acme, url=receiver.url, events=["memory.created"], include_content=True)

    on_commit(lambda: write_tea(alice, bot, f"oolong, call {PHONE}"))

    memory = receiver.requests[0].json["data"]["memory"]
    assert memory["value"] == "oolong, call <CN_MOBILE>"
    assert memory["text"] == "tea: oolong, call <CN_MOBILE>"
    assert PHONE not in receiver.requests[0].body.decode()


def test_a_tampered_body_an_old_timestamp_or_another_secret_fails_verification(alice, bot, hook, receiver, on_commit):
    on_commit(lambda: write_tea(alice, bot))
    request = receiver.requests[0]
    header = request.headers["memoryadmin-signature"]
    sent_at = int(header.split(",")[0].removeprefix("t="))

    assert verify_signature(request.body, header, hook.secret, now=sent_at + 299)
    assert not verify_signature(request.body.replace(b"acme", b"acmf"), header, hook.secret)
    assert not verify_signature(request.body, header, hook.secret, now=sent_at + 301)  # a replay, 5 min later
    assert not verify_signature(request.body, header, "whsec_another")
    assert not verify_signature(request.body, "v1=deadbeef", hook.secret)
    assert not verify_signature(request.body, "", hook.secret)


def test_supersede_correct_delete_and_forget_each_send_their_event(alice, bot, hook, receiver, on_commit):
    first = on_commit(lambda: write_tea(alice, bot))
    second = on_commit(lambda: write_tea(alice, bot, "jasmine"))
    corrected = on_commit(lambda: memory_correct(memory=second, content="white tea", actor=bot).memory)
    on_commit(lambda: memory_forget(memory=corrected, actor=bot))
    on_commit(lambda: subject_forget(subject=alice, actor=bot))

    types = [r.json["type"] for r in receiver.requests]
    assert types == ["memory.created", "memory.superseded", "memory.corrected", "memory.deleted", "subject.forgotten"]
    superseded = receiver.requests[1].json["data"]["memory"]
    assert superseded["supersedes"] == str(first.id) and superseded["version"] == 2
    deleted = receiver.requests[3].json["data"]["memory"]
    assert deleted["status"] == "deleted" and deleted["lineage"] == str(first.lineage)
    assert receiver.requests[4].json["data"] == {"subject": "alice", "memories_erased": 3, "actor": "agent"}


def test_a_memory_forgotten_before_its_event_is_sent_goes_out_without_its_key_or_content(acme, alice, bot, receiver):
    endpoint_create(workspace=acme, url=receiver.url, events=["memory.created"], include_content=True)
    memory = write_tea(alice, bot)  # its delivery is still pending: no commit yet
    memory_forget(memory=memory, actor=bot)

    retry_due()

    sent = receiver.requests[0].json["data"]["memory"]
    assert (sent["key"], sent["text"], sent["value"]) == ("", "", "")
    assert "oolong" not in receiver.requests[0].body.decode()


def test_a_receiver_that_answers_500_is_retried_until_it_answers_200(alice, bot, hook, receiver, settings, on_commit):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.05
    receiver.answers = [500]

    on_commit(lambda: write_tea(alice, bot))
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts) == ("pending", 1)
    time.sleep(0.1)
    retry_due()

    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.last_status_code) == ("delivered", 2, 200)
    first, second = WebhookAttempt.objects.filter(delivery=delivery).order_by("number")
    assert (first.status_code, first.ok, second.status_code, second.ok) == (500, False, 200, True)
    assert "HTTP 500" in first.error and first.next_retry_at is not None and second.next_retry_at is None
    assert first.latency_ms > 0
    assert receiver.requests[0].body == receiver.requests[1].body  # the same event, signed again
    assert all(verify_signature(r.body, r.headers["memoryadmin-signature"], hook.secret) for r in receiver.requests)


def test_retries_back_off_exponentially_with_jitter_up_to_a_cap(settings):
    settings.WEBHOOK_RETRY_BASE_SECONDS, settings.WEBHOOK_RETRY_MAX_SECONDS = 30, 3600

    delays = {attempt: [retry_delay(attempt) for _ in range(50)] for attempt in (1, 2, 3, 10)}

    assert all(15 <= d <= 30 for d in delays[1]) and all(30 <= d <= 60 for d in delays[2])
    assert all(60 <= d <= 120 for d in delays[3]) and all(1800 <= d <= 3600 for d in delays[10])
    assert len(set(delays[1])) > 1  # jittered


def test_a_delivery_gives_up_after_the_last_attempt(alice, bot, hook, receiver, settings, on_commit):
    settings.WEBHOOK_RETRY_BASE_SECONDS, settings.WEBHOOK_MAX_ATTEMPTS = 0.01, 3
    receiver.answers = [500, 502, 503, 200]

    on_commit(lambda: write_tea(alice, bot))
    for _ in range(4):
        time.sleep(0.03)
        retry_due()

    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts, len(receiver.requests)) == ("failed", 3, 3)
    assert WebhookAttempt.objects.filter(delivery=delivery).order_by("-number").first().next_retry_at is None


def test_an_endpoint_is_disabled_after_repeated_failures_and_audited(alice, bot, hook, receiver, settings, on_commit):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES, settings.WEBHOOK_MAX_ATTEMPTS = 3, 1
    receiver.answers = [500] * 10

    for value in ("a", "b", "c", "d"):
        on_commit(lambda value=value: write_tea(alice, bot, value))

    hook.refresh_from_db()
    assert hook.enabled is False and "3 consecutive failed deliveries" in hook.disabled_reason
    assert len(receiver.requests) == 3  # nothing is sent to it once it is off
    event = AuditEvent.objects.get(action="webhook.auto_disabled")
    assert (event.actor_type, event.after["url"]) == ("system", receiver.url)


def test_a_success_resets_the_failure_count(alice, bot, hook, receiver, settings, on_commit):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES, settings.WEBHOOK_MAX_ATTEMPTS = 2, 1
    receiver.answers = [500, 200, 500]

    for value in ("a", "b", "c"):
        on_commit(lambda value=value: write_tea(alice, bot, value))

    hook.refresh_from_db()
    assert (hook.enabled, hook.consecutive_failures) == (True, 1)


def test_an_endpoint_hears_only_the_events_it_chose(acme, alice, bot, receiver, on_commit):
    endpoint_create(workspace=acme, url=receiver.url, events=["memory.superseded"])

    memory = on_commit(lambda: write_tea(alice, bot))
    on_commit(lambda: write_tea(alice, bot, "jasmine"))
    on_commit(lambda: episode_record(subject=alice, text="asked for a refund", actor=bot))
    on_commit(lambda: memory_forget(memory=memory, actor=bot))

    assert [r.json["type"] for r in receiver.requests] == ["memory.superseded"]


def test_a_disabled_endpoint_hears_nothing(alice, bot, hook, receiver, on_commit):
    WebhookEndpoint.objects.filter(pk=hook.pk).update(enabled=False)

    on_commit(lambda: write_tea(alice, bot))

    assert receiver.requests == [] and not WebhookDelivery.objects.exists()


def test_one_workspaces_endpoints_never_receive_another_workspaces_events(globex, alice, carol, bot, hook, on_commit):
    from apps.accounts.models import Agent
    from apps.audit.services import Actor
    from tests.webhooks.receiver import Receiver

    other = Receiver()
    try:
        endpoint_create(workspace=globex, url=other.url, events=ALL_EVENTS)
        globex_bot = Actor.agent(Agent.objects.create(workspace=globex, name="Globex Bot"))

        on_commit(lambda: fact_upsert(subject=carol, key="city", value="Oslo", category="fact", actor=globex_bot))
        on_commit(lambda: write_tea(alice, bot))
        on_commit(lambda: subject_forget(subject=carol, actor=globex_bot))

        assert [(r.json["workspace"], r.json["data"]["subject"]) for r in other.requests] == [
            ("globex", "carol"),
            ("globex", "carol"),
        ]
    finally:
        other.close()


def test_nothing_is_sent_for_a_write_that_rolled_back(alice, bot, hook, receiver, django_capture_on_commit_callbacks):
    from django.db import transaction

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        write_tea(alice, bot)
        raise RuntimeError("something after the write failed")

    assert receiver.requests == [] and not WebhookDelivery.objects.exists()


def test_a_processed_turn_sends_ingest_done_with_the_ids_it_wrote(acme, support_bot, receiver, on_commit):
    endpoint_create(workspace=acme, url=receiver.url, events=["ingest.done"], include_content=True)
    ingest, _ = ingest_accept(
        workspace=acme, external_id="alice", agent=support_bot, turn_id="t-1", user_message="我不吃辣。I use Neovim."
    )

    done = on_commit(lambda: ingest_process(ingest_id=ingest.id))

    [request] = receiver.requests
    assert request.json["type"] == "ingest.done"
    data = request.json["data"]
    assert data["subject"] == "alice"
    assert data["ingest"]["id"] == str(ingest.id) and data["ingest"]["status"] == "done"
    assert data["ingest"]["turn_id"] == "t-1"
    assert data["ingest"]["created"] == [m["id"] for m in done.result["created"]] and data["ingest"]["created"]
    assert "辣" not in request.body.decode()


def test_a_failed_turn_sends_ingest_failed(acme, support_bot, receiver, on_commit):
    endpoint_create(workspace=acme, url=receiver.url, events=["ingest.failed"])
    ingest, _ = ingest_accept(
        workspace=acme, external_id="alice", agent=support_bot, turn_id="t-2", user_message="hello"
    )

    on_commit(lambda: ingest_fail(ingest_id=ingest.id, error="LLM endpoint down"))

    [request] = receiver.requests
    assert request.json["data"]["ingest"] | {"id": None} == {
        "id": None,
        "status": "failed",
        "turn_id": "t-2",
        "created": [],
        "updated": [],
    }
    assert "LLM" not in request.body.decode()


def test_an_api_write_reaches_the_receiver_once_its_transaction_commits(api, hook, receiver, on_commit):
    response = on_commit(
        lambda: api.post(
            "/api/v1/subjects/alice/facts",
            {"key": "drink", "value": "cold brew", "category": "preference"},
            format="json",
        )
    )

    assert response.status_code == 201
    assert receiver.requests[0].json["data"]["memory"]["id"] == response.json()["id"]


def test_private_and_loopback_targets_are_refused_when_sending(alice, bot, hook, receiver, settings, on_commit):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False

    on_commit(lambda: write_tea(alice, bot))

    assert receiver.requests == []
    attempt = WebhookAttempt.objects.get()
    assert attempt.status_code is None and "127.0.0.1 is not a public address" in attempt.error


def test_a_redirect_is_a_failure_not_followed(acme, alice, bot, receiver, on_commit):
    endpoint_create(workspace=acme, url=receiver.url, events=["memory.created"])
    receiver.answers = [302]

    on_commit(lambda: write_tea(alice, bot))

    attempt = WebhookAttempt.objects.get()
    assert attempt.status_code == 302 and not attempt.ok and len(receiver.requests) == 1


def test_the_readme_receiver_example_verifies_a_real_delivery(alice, bot, hook, receiver, on_commit):
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2].joinpath("README.md").read_text()
    section = readme.split("## Webhooks", 1)[1]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 — our own documentation
    on_commit(lambda: write_tea(alice, bot))
    request = receiver.requests[0]

    assert namespace["verify_signature"](request.body, request.headers["memoryadmin-signature"], hook.secret)
    assert not namespace["verify_signature"](request.body + b" ", request.headers["memoryadmin-signature"], hook.secret)
