"""Named fixtures, healthchecks-style: alice and bob are subjects of the Acme workspace, whose agent
is Support Bot; Globex is another tenant with its own subject carol and agent. Logins: alice_user
(Alice's portal login), olga operates Acme, adam administers it, gina administers Globex only;
`login_as(user)` signs the test's client in; as_alice, as_bob, as_olga, as_adam and as_gina are
that client signed in as each."""

import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Agent, Membership, Subject, Workspace
from apps.accounts.services import apikey_issue
from apps.audit.services import Actor
from tests.broker import real_worker  # noqa: F401  (a fixture: one real Celery worker, for every module)
from tests.factories import console_user, portal_user
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
def login_as(client):
    """login_as(user) signs the test's client in as `user` and returns it; login_as(user, other) signs
    in another client instead, e.g. Client(enforce_csrf_checks=True)."""

    def sign_in(user, other=None):
        signed_in = other or client
        signed_in.force_login(user)
        return signed_in

    return sign_in


@pytest.fixture
def alice_user(alice):
    return portal_user(alice)


@pytest.fixture
def as_alice(login_as, alice_user):
    return login_as(alice_user)


@pytest.fixture
def as_bob(login_as, bob):
    return login_as(portal_user(bob))


@pytest.fixture
def olga(acme):
    """Olga is an operator (not admin) of Acme."""
    return console_user(acme, "olga")


@pytest.fixture
def as_olga(login_as, olga):
    return login_as(olga)


@pytest.fixture
def adam(acme):
    """Adam is an admin of Acme."""
    return console_user(acme, "adam", Membership.Role.ADMIN)


@pytest.fixture
def as_adam(login_as, adam):
    return login_as(adam)


@pytest.fixture
def gina(globex):
    """Gina is an admin of Globex only."""
    return console_user(globex, "gina", Membership.Role.ADMIN)


@pytest.fixture
def as_gina(login_as, gina):
    return login_as(gina)


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
