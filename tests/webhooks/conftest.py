import pytest

from apps.webhooks.services import endpoint_create
from tests.webhooks.receiver import Receiver

ALL_EVENTS = [
    "memory.created",
    "memory.superseded",
    "memory.corrected",
    "memory.deleted",
    "subject.forgotten",
    "ingest.done",
    "ingest.failed",
]


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


@pytest.fixture(autouse=True)
def _local_receivers_allowed(settings):
    """The receivers of these tests listen on 127.0.0.1, which production refuses."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True


@pytest.fixture
def hook(acme, receiver):
    """Acme's endpoint for every event, without content; `hook.secret` is the secret shown once."""
    endpoint, secret = endpoint_create(workspace=acme, url=receiver.url, events=ALL_EVENTS)
    endpoint.secret = secret
    return endpoint


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what a write hands to on_commit (the webhook delivery), as a real commit would."""

    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run
