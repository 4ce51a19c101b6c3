from rest_framework.permissions import SAFE_METHODS, BasePermission


def required_scope(request, view) -> str:
    """Reads need the `read` scope, everything else `write`, unless the view says otherwise."""
    return getattr(view, "required_scope", None) or ("read" if request.method in SAFE_METHODS else "write")


def missing_scope(scope: str) -> str:
    return f"This API key lacks the '{scope}' scope."


class HasScope(BasePermission):
    def has_permission(self, request, view) -> bool:
        if request.auth is None:
            return False  # DRF answers 401: no authenticator succeeded
        scope = required_scope(request, view)
        self.message = missing_scope(scope)
        return scope in request.auth.scopes
