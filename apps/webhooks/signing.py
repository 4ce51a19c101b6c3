"""Signatures: `Memoryadmin-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{body}">`.

`verify_signature` uses only the standard library, so a receiver can copy it as it is (the README
shows it). Receivers should refuse a timestamp older than the replay window (5 minutes by default)
and deduplicate on `Memoryadmin-Event-Id`: a delivery may arrive more than once.
"""

import base64
import hashlib
import hmac
import secrets
import time

from django.conf import settings

SIGNATURE_HEADER = "Memoryadmin-Signature"
DEFAULT_TOLERANCE_SECONDS = 300


def new_salt() -> str:
    return secrets.token_hex(16)


def endpoint_secret(salt: str) -> str:
    """The endpoint's signing secret, derived from SECRET_KEY (rotating SECRET_KEY rotates every one)."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"memoryadmin-webhook-secret:{salt}".encode(), hashlib.sha256)
    return "whsec_" + base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def sign(body: bytes, secret: str, *, timestamp: int | None = None) -> str:
    """The header value for `body`, signed now (or at `timestamp`)."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify_signature(
    body: bytes, header: str, secret: str, *, tolerance: int = DEFAULT_TOLERANCE_SECONDS, now: float | None = None
) -> bool:
    """True when `header` (Memoryadmin-Signature) signs exactly these raw `body` bytes with `secret`
    and its timestamp is within `tolerance` seconds of now."""
    parts = [item.split("=", 1) for item in header.split(",") if "=" in item]
    timestamps = [value for key, value in parts if key.strip() == "t"]
    signatures = [value.strip() for key, value in parts if key.strip() == "v1"]
    if len(timestamps) != 1 or not timestamps[0].strip().isdigit() or not signatures:
        return False
    timestamp = int(timestamps[0])
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)
