"""Privacy: the redaction gate. Nothing reaches storage before personal data is redacted.

The public names live in `apps.privacy.redaction`. They are re-exported lazily (PEP 562) so
that Django's app loading, which imports this package, does not pay for importing Django
settings-dependent code here; Presidio itself is only imported when the engines are built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apps.privacy.redaction import Finding, PIIRejected, Redacted, get_engines, redact, redact_data

__all__ = ["Finding", "PIIRejected", "Redacted", "get_engines", "redact", "redact_data"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from apps.privacy import redaction

        return getattr(redaction, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
