"""Named fixtures, healthchecks-style: alice and bob are subjects of the Acme workspace, whose agent
is Support Bot; Globex is another tenant with its own subject carol and agent."""

import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Agent, Subject, Workspace
from apps.accounts.services import apikey_issue
from apps.audit.services import Actor
from tests.broker import real_worker  # noqa: F401  (a fixture: one real Celery worker, for every module)
from tests.fake_embeddings import FakeEmbeddingServer


@pytest.fixture
def acme(db) -> Workspace:
    return Workspace.objects.create(name="Acme", slug="acme")


@pytest.fixture
def globex(db) -> Workspace:
    return Workspace.objects.create(name="Globex", slug="globex")


@pytest.fixture
def alice(acme) -> Subject:
    return Subject.objects.create(workspace=acme, external_id="alice", display_name="Alice", timezone="Asia/Shanghai")


@pytest.fixture
def bob(acme) -> Subject:
    return Subject.objects.create(workspace=acme, external_id="bob", display_name="Bob")


@pytest.fixture
def carol(globex) -> Subject:
    return Subject.objects.create(workspace=globex, external_id="carol", display_name="Carol")


@pytest.fixture
def support_bot(acme) -> Agent:
    return Agent.objects.create(workspace=acme, name="Support Bot")


@pytest.fixture
def bot(support_bot) -> Actor:
    """Support Bot acting through the API."""
    return Actor.agent(support_bot, request_id="req-test")


@pytest.fixture
def fake_server():
    server = FakeEmbeddingServer()
    yield server
    server.close()


@pytest.fixture
def remote(settings, fake_server):
    settings.EMBEDDINGS_URL = fake_server.url
    settings.EMBEDDINGS_API_KEY = "sk-test-123"
    settings.EMBEDDINGS_TIMEOUT = 2.0
    settings.EMBEDDINGS_DIMENSION = None
    return fake_server


def client_with_key(agent, scopes=("read", "write")) -> APIClient:
    _, raw_key = apikey_issue(agent=agent, scopes=list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    client.raw_key = raw_key
    return client


@pytest.fixture
def api(support_bot) -> APIClient:
    """Support Bot of Acme with a read+write key."""
    return client_with_key(support_bot)


@pytest.fixture
def read_only_api(support_bot) -> APIClient:
    return client_with_key(support_bot, scopes=["read"])


@pytest.fixture
def globex_api(globex) -> APIClient:
    """An agent of the other workspace."""
    return client_with_key(Agent.objects.create(workspace=globex, name="Globex Bot"))


@pytest.fixture(autouse=True)
def _embedders_not_paused():
    """A test that made an embedder fail must not make the next test's recall fall back."""
    from apps.memories.recall import engine

    engine.embedder_paused_until.clear()
    engine.query_vectors.clear()  # nor find a vector another test's (fake) embedder made
    yield
    engine.embedder_paused_until.clear()
    engine.query_vectors.clear()
