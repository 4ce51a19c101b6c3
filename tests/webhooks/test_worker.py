"""Webhooks delivered by a real Celery worker on the Redis broker: the first answer is a 500, the
worker's retry (scheduled with a countdown, not by the test) gets the 200."""

import time

import pytest

from apps.webhooks.models import WebhookAttempt, WebhookDelivery
from apps.webhooks.signing import verify_signature
from tests.broker import BROKER

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for_state(state: str, timeout: float = 20) -> WebhookDelivery:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        delivery = WebhookDelivery.objects.first()
        if delivery is not None and delivery.state == state:
            return delivery
        time.sleep(0.1)
    raise AssertionError(f"no delivery reached {state!r} within {timeout}s")


@pytest.mark.skipif(not BROKER.startswith("redis"), reason="needs Redis at 127.0.0.1:6379")
def test_a_real_worker_retries_a_failed_delivery_until_the_receiver_takes_it(
    api, hook, receiver, settings, real_worker
):  # noqa: F811
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.3
    receiver.answers = [500]

    response = api.post(
        "/api/v1/subjects/alice/facts", {"key": "drink", "value": "cold brew", "category": "preference"}, format="json"
    )
    assert response.status_code == 201

    delivery = wait_for_state("delivered")
    first, second = receiver.wait_for(2)
    assert [a.status_code for a in WebhookAttempt.objects.filter(delivery=delivery).order_by("number")] == [500, 200]
    assert all(verify_signature(r.body, r.headers["memoryadmin-signature"], hook.secret) for r in (first, second))
    assert second.json["data"]["memory"]["id"] == response.json()["id"]
