from rest_framework.throttling import ScopedRateThrottle

from apps.api.permissions import required_scope


class PerKeyThrottle(ScopedRateThrottle):
    """ScopedRateThrottle per API key, with the scope `api_read` or `api_write` from the method."""

    def allow_request(self, request, view) -> bool:
        if request.auth is None:
            return True  # the request is refused with 401 anyway
        self.scope = f"api_{required_scope(request, view)}"
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super(ScopedRateThrottle, self).allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": request.auth.prefix}
