"""What extractors produce. An extractor reads one (already redacted) conversation turn and
proposes memories; the ingest pipeline filters, normalizes, deduplicates and writes them through
the services. Extractors never write anything themselves.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

# Sensitive inferences are not stored unless a workspace allows the category explicitly.
SENSITIVE_CATEGORIES = ("health", "emotion", "finance", "religion", "politics", "sexuality")


@dataclass(frozen=True)
class Turn:
    """One exchange, redacted before it reached us. `now` and `timezone` anchor relative dates."""

    user_message: str
    assistant_message: str = ""
    now: datetime | None = None  # aware; when the turn happened
    timezone: str = "UTC"  # the subject's IANA time zone
    asked: str = ""  # the assistant's reply in the turn before: the question this message may answer


@dataclass(frozen=True)
class Proposal:
    """A memory an extractor proposes.

    kind "profile": category preference|fact|constraint|goal, `key` (any words; the pipeline
    normalizes synonyms) and `value`; kind "episode": category event, `text`.
    `evidence` is the span of the turn it came from (shown as the source excerpt).
    """

    kind: str
    category: str
    key: str = ""
    value: str = ""
    text: str = ""
    confidence: float = 0.8
    importance: float = 0.5
    stability: str = "stable"  # "stable" | "transient" (e.g. "I'm tired today": dropped)
    sensitive: str = ""  # one of SENSITIVE_CATEGORIES when the proposal reveals such a thing
    scope: str = "personal"  # "personal" | "team" ("we use PostgreSQL": lower confidence)
    evidence: str = ""
    metadata: dict = field(default_factory=dict)

    @property
    def content(self) -> str:
        """What is proposed to be remembered, as `Memory.content`: the value of a fact, the text of an episode."""
        return self.value if self.kind == "profile" else self.text


@dataclass(frozen=True)
class Skip:
    """Something the extractor saw and deliberately did not propose, with the reason."""

    text: str
    reason: str  # e.g. "question", "hypothetical", "injection", "quoted", "joke", "sensitive"


@dataclass(frozen=True)
class Extraction:
    proposals: list[Proposal]
    skipped: list[Skip]


class Extractor(Protocol):
    name: str
    version: str

    def extract(self, turn: Turn) -> Extraction: ...


class ExtractionError(Exception):
    """The extractor produced no answer (an LLM endpoint down, timing out, refusing, truncated output, ...).

    The Celery task retries these with backoff. `retryable` is False when the server rejected the
    request itself (HTTP 4xx other than 408/409/425/429: bad key, unknown model, unsupported
    `response_format`), which no retry will fix; `status` is the HTTP status when there was one.
    """

    def __init__(self, message: str, *, retryable: bool = True, status: int | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status
