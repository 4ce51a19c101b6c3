"""Browser sessions started by a portal link are *portal-only*: the link came from an agent (an API
key), so the session it starts opens the person's own memories and nothing else. The console and
the admin refuse such a session; signing in with a password starts a full one."""

from django.http import HttpRequest

PORTAL_ONLY = "portal_only"


def mark_portal_only(request: HttpRequest) -> None:
    """Call right after `login()` for a portal link."""
    request.session[PORTAL_ONLY] = True


def is_portal_only(request: HttpRequest) -> bool:
    session = getattr(request, "session", None)
    return bool(session is not None and session.get(PORTAL_ONLY))


def clear_portal_only(sender, request: HttpRequest | None = None, **kwargs) -> None:
    """`user_logged_in` receiver: every sign-in starts as a full session (the link view marks its own
    afterwards). `login()` keeps the session's data when the same user signs in again."""
    if request is not None and getattr(request, "session", None) is not None:
        request.session.pop(PORTAL_ONLY, None)
