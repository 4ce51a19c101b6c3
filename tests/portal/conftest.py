import pytest

from apps.accounts.models import Subject
from tests.factories import episode, fact


@pytest.fixture
def alice_user(alice, django_user_model):
    user = django_user_model.objects.create_user("alice", password="alice-pass")
    Subject.objects.filter(pk=alice.pk).update(user=user)
    return user


@pytest.fixture
def bob_user(bob, django_user_model):
    user = django_user_model.objects.create_user("bob", password="bob-pass")
    Subject.objects.filter(pk=bob.pk).update(user=user)
    return user


@pytest.fixture
def as_alice(client, alice_user):
    client.force_login(alice_user)
    return client


@pytest.fixture
def as_bob(client, bob_user):
    client.force_login(bob_user)
    return client


@pytest.fixture
def alices_memories(alice):
    """Alice's tea preference (from Support Bot), a constraint and an episode; the tea memory."""
    from apps.accounts.models import Agent
    from apps.memories.services import Provenance

    bot = Agent.objects.create(workspace=alice.workspace, name="Support Bot")
    tea = fact(alice, "drink", "喜欢喝乌龙茶 oolong tea", provenance=Provenance(agent=bot, excerpt="我喜欢喝乌龙茶"))
    fact(alice, "diet", "不吃辣", category="constraint")
    episode(alice, "Asked for a refund of order 8812", days=2, session_id="s-1")
    return tea
