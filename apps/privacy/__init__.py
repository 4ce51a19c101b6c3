"""Privacy: the redaction gate. Nothing reaches storage before personal data is redacted.

Importing this package is cheap: `redaction` imports Presidio (about a second, spaCy included)
only when the engines are first built.
"""

from apps.privacy.redaction import Finding, PIIRejected, Redacted, get_engines, redact, redact_data

__all__ = ["Finding", "PIIRejected", "Redacted", "get_engines", "redact", "redact_data"]
