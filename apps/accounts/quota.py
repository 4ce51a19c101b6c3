"""Writes an agent made outside a request (a turn's memories, written by a worker), counted so the
API's write throttle can charge them to the agent's keys.

Kept in Django's cache like the throttle's own history: configure a shared cache (Redis) when web
and worker processes are separate, or the web processes never see the workers' charges.
"""

import logging
import time

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

KEEP_SECONDS = 24 * 3600  # the longest throttle period DRF knows ("/day")


def _key(agent_id: int) -> str:
    return f"agent_writes_{agent_id}"


def writes_charge(*, agent_id: int | None, count: int) -> None:
    """Record `count` writes made now by the agent."""
    if not agent_id or count <= 0:
        return
    now = time.time()
    try:
        charges = [(at, n) for at, n in cache.get(_key(agent_id), []) if at > now - KEEP_SECONDS]
        charges.append((now, count))
        cache.set(_key(agent_id), charges, KEEP_SECONDS)
    except RedisError as error:  # the shared cache (CACHE_URL) is down: the writes are made, only not counted
        logger.warning(
            "Quota cache unavailable (%s): %d writes of agent %s not charged", type(error).__name__, count, agent_id
        )


def writes_charged(*, agent_id: int | None, since: float) -> int:
    """How many writes were charged to the agent after `since` (a time.time() value)."""
    if not agent_id:
        return 0
    return sum(n for at, n in cache.get(_key(agent_id), []) if at > since)
