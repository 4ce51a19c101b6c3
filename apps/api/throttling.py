import logging
from types import SimpleNamespace

from redis.exceptions import RedisError
from rest_framework.exceptions import Throttled
from rest_framework.throttling import ScopedRateThrottle

from apps.accounts.models import ApiKey
from apps.accounts.quota import writes_charged
from apps.api.permissions import required_scope

logger = logging.getLogger(__name__)


def _limits(parsed: tuple[int | None, int | None]) -> tuple[int, int]:
    """parse_rate's (requests, seconds): every scope here has a rate (settings.REST_FRAMEWORK)."""
    limit, duration = parsed
    assert limit is not None and duration is not None
    return limit, duration


class PerKeyThrottle(ScopedRateThrottle):
    """ScopedRateThrottle per API key, with the scope `api_read` or `api_write` from the method.

    Writes count the requests of the key plus the memories its agent's turns created in the same
    period (`apps.accounts.quota`): one turn that becomes twenty memories costs twenty-one writes."""

    def allow_request(self, request, view) -> bool:
        if request.auth is None:
            return True  # the request is refused with 401 anyway
        try:
            return self._allow(request, view)
        except RedisError as error:  # the shared cache (CACHE_URL) is down: serve the request, uncounted
            logger.warning("Throttle cache unavailable (%s): request let through", type(error).__name__)
            return True

    def _allow(self, request, view) -> bool:
        self.scope = f"api_{required_scope(request, view)}"
        self.rate = self.get_rate()
        limit, duration = self.num_requests, self.duration = _limits(self.parse_rate(self.rate))
        self.key = self.get_cache_key(request, view)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - duration:
            self.history.pop()
        charged = 0
        if self.scope == "api_write":
            charged = writes_charged(agent_id=request.auth.agent_id, since=self.now - duration)
        if len(self.history) + charged >= limit:
            return self.throttle_failure()
        return self.throttle_success()

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": request.auth.prefix}


class ImportBudget(PerKeyThrottle):
    """Items a key may import per period (scope `api_import`), charged by the batch endpoint for all
    the items of a batch before any is written; the request itself is counted by PerKeyThrottle."""

    scope = "api_import"

    def __init__(self) -> None:  # the rate is read per charge: settings may change (tests, reloads)
        pass

    def charge(self, request, *, items: int) -> None:
        """Take `items` from the key's budget, or raise Throttled (429 with Retry-After) taking nothing."""
        limit, duration = self.num_requests, self.duration = _limits(self.parse_rate(self.THROTTLE_RATES[self.scope]))
        key = self.cache_format % {"scope": self.scope, "ident": request.auth.prefix}
        now = self.timer()
        try:
            history = [(at, n) for at, n in self.cache.get(key, []) if at > now - duration]
        except RedisError as error:  # as in allow_request: a cache outage does not stop imports
            logger.warning("Import budget cache unavailable (%s): batch let through", type(error).__name__)
            return
        used = sum(n for _, n in history)
        if used + items > limit:
            freed, wait = limit - used, duration
            for at, n in sorted(history):  # the oldest charges expire first
                freed += n
                if freed >= items:
                    wait = at + duration - now
                    break
            raise Throttled(
                wait=max(1, wait),
                detail=(
                    f"This batch of {items} items exceeds the key's import budget ({limit} items per "
                    f"{duration} s, {max(0, limit - used)} left); nothing was written."
                ),
            )
        history.append((now, items))
        try:
            self.cache.set(key, history, duration)
        except RedisError:
            logger.warning("Import budget cache unavailable: batch of %d items not counted", items)


def throttle_wait(*, key: ApiKey, scope: str) -> float | None:
    """The same per-key budget for a call that is not a DRF request (an MCP tool call): None when
    allowed (and counted), else the seconds to wait."""
    throttle = PerKeyThrottle()
    request = SimpleNamespace(auth=key, method="GET" if scope == "read" else "POST")
    if throttle.allow_request(request, SimpleNamespace(required_scope=scope)):
        return None
    return throttle.wait() or 1.0
