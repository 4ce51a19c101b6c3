import pytest

from tests.factories import episode, fact


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
