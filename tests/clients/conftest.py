import pytest
from django.core.cache import cache

from apps.accounts.services import apikey_issue


@pytest.fixture
def server(live_server, transactional_db, support_bot, alice) -> str:
    """The live test server's base URL; Acme's Support Bot writes about alice there."""
    cache.clear()  # throttle histories of earlier tests
    yield live_server.url
    cache.clear()


@pytest.fixture
def key(support_bot) -> str:
    return apikey_issue(agent=support_bot, scopes=["read", "write"])[1]


@pytest.fixture
def read_only_key(support_bot) -> str:
    return apikey_issue(agent=support_bot, scopes=["read"])[1]
