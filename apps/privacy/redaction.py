"""The redaction gate: personal data is replaced by typed placeholders before anything is stored.

    >>> redact("我的手机是13812345678").text
    '我的手机是<CN_MOBILE>'

One Presidio AnalyzerEngine and AnonymizerEngine serve the whole process; they are built on
first use (see `get_engines`), so importing this module stays cheap. Settings read:

- PII_SCORE_THRESHOLD (per call): candidates scoring below it are ignored.
- PII_REJECT_ENTITIES (per call): entity types that raise PIIRejected instead of being redacted.
- PII_NER_MODEL (at engine build): a spaCy model name enabling PERSON/LOCATION; "" = off.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from apps.privacy.normalize import normalize
from memoryadmin import metrics
from memoryadmin.tracing import span

if TYPE_CHECKING:
    from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerResult
    from presidio_analyzer.nlp_engine import NlpEngine
    from presidio_anonymizer import AnonymizerEngine

__all__ = ["Finding", "PIIRejected", "Redacted", "get_engines", "redact", "redact_data"]


@dataclass(frozen=True)
class Finding:
    """Where personal data was found. Deliberately never carries the raw value."""

    entity_type: str  # e.g. "EMAIL_ADDRESS", "CN_MOBILE"
    start: int  # span in the ORIGINAL text
    end: int
    score: float


@dataclass(frozen=True)
class Redacted:
    text: str  # with typed placeholders such as "<CN_MOBILE>"
    findings: tuple[Finding, ...]

    @property
    def counts(self) -> dict[str, int]:
        """Entity type -> number of findings."""
        return dict(Counter(f.entity_type for f in self.findings))


class PIIRejected(Exception):
    """The text holds personal data of a type configured (PII_REJECT_ENTITIES) to be refused."""

    def __init__(self, entity_types: Iterable[str]) -> None:
        self.entity_types: list[str] = sorted(set(entity_types))
        super().__init__(
            "Refused to store text containing personal data of a rejected type: " + ", ".join(self.entity_types) + "."
        )


# --- engines -----------------------------------------------------------------------------------

_engines: tuple[AnalyzerEngine, AnonymizerEngine] | None = None
_engines_lock = threading.Lock()


def get_engines() -> tuple[AnalyzerEngine, AnonymizerEngine]:
    """The process-wide (analyzer, anonymizer) pair, built on first call.

    Double-checked locking: the common path reads the global without the lock; the first
    callers serialise on the lock so concurrent first requests build the engines once.
    """
    global _engines
    engines = _engines
    if engines is None:
        with _engines_lock:
            engines = _engines
            if engines is None:
                engines = _engines = _build_engines()
    return engines


def _build_engines() -> tuple[AnalyzerEngine, AnonymizerEngine]:
    from presidio_analyzer import AnalyzerEngine
    from presidio_anonymizer import AnonymizerEngine

    from apps.privacy.recognizers import LANGUAGE, build_registry

    nlp_engine: NlpEngine
    extra: list[EntityRecognizer] = []
    model = getattr(settings, "PII_NER_MODEL", "") or ""
    if model:
        nlp_engine, extra = _spacy_engine(model, LANGUAGE)
    else:
        from presidio_analyzer.nlp_engine import NoOpNlpEngine

        # No tokenisation, no model download; every recognizer we register is self-contained.
        nlp_engine = NoOpNlpEngine(models=[{"lang_code": LANGUAGE, "model_name": "no_op"}])
    analyzer = AnalyzerEngine(registry=build_registry(extra), nlp_engine=nlp_engine, supported_languages=[LANGUAGE])
    return analyzer, AnonymizerEngine()


def _spacy_engine(model: str, language: str) -> tuple[NlpEngine, list[EntityRecognizer]]:
    """spaCy NER for PERSON/LOCATION. Fails instead of downloading when the model is missing
    (Presidio's SpacyNlpEngine.load() would otherwise run `spacy download`)."""
    from pathlib import Path

    import spacy
    from presidio_analyzer.nlp_engine import SpacyNlpEngine
    from presidio_analyzer.predefined_recognizers import SpacyRecognizer

    if not (spacy.util.is_package(model) or Path(model).exists()):
        raise ImproperlyConfigured(
            f"PII_NER_MODEL={model!r}: the spaCy model is not installed "
            f"(install it, e.g. `python -m spacy download {model}`, or set PII_NER_MODEL to '')."
        )
    nlp_engine = SpacyNlpEngine(models=[{"lang_code": language, "model_name": model}])
    nlp_engine.load()
    ner = SpacyRecognizer(supported_language=language, supported_entities=["PERSON", "LOCATION"])
    return nlp_engine, [ner]


# --- overlap resolution ------------------------------------------------------------------------

# Tie-break between candidates of equal length: higher wins, then the higher score.
# - CN_RESIDENT_ID first: a valid birth date is a stronger signal than a checksum, so an ID
#   that also passes Luhn is an ID, even when its own check character is mistyped.
# - Checksummed identifiers (CN_BANK_CARD, HK_ID, TW_ID, UK_NINO) and CN_MOBILE over anything
#   else found on the same span.
_PRIORITY = {"CN_RESIDENT_ID": 2, "CN_BANK_CARD": 1, "CN_MOBILE": 1, "HK_ID": 1, "TW_ID": 1, "UK_NINO": 1}


def _resolve_overlaps(results: Iterable[RecognizerResult]) -> list[Finding]:
    """One finding per span: overlapping candidates are merged into one finding.

    Candidates that overlap (transitively) form a group. The group's winner is the longest
    candidate, then the one with the higher `_PRIORITY`, then the higher score; the finding
    has the winner's type and score and the union of the group's spans, so no fragment of a
    losing candidate is left unredacted.
    """
    ordered = sorted(results, key=lambda r: (r.start, -r.end))
    groups: list[list[RecognizerResult]] = []
    group_end = -1
    for result in ordered:
        if groups and result.start < group_end:
            groups[-1].append(result)
            group_end = max(group_end, result.end)
        else:
            groups.append([result])
            group_end = result.end
    findings = []
    for group in groups:
        winner = max(
            group,
            key=lambda r: (r.end - r.start, _PRIORITY.get(r.entity_type, 0), r.score, r.entity_type),
        )
        start = min(r.start for r in group)
        end = max(r.end for r in group)
        findings.append(Finding(winner.entity_type, start, end, round(float(winner.score), 4)))
    return findings


# --- public API --------------------------------------------------------------------------------


def _analyze(text: str) -> tuple[Redacted, set[str]]:
    """Redact `text`; also return the rejected entity types present instead of raising.

    The recognizers read the normalized text (full-width forms, zero-width characters and Chinese
    numerals folded, see `apps.privacy.normalize`); the findings are mapped back onto the original
    text, which is what gets the placeholders.
    """
    if not text.strip():
        return Redacted(text, ()), set()

    # The engines first: building them imports Presidio under `_engines_lock`, so the imports below
    # only read modules already loaded (threads importing one module at once can be handed a
    # half-initialised one by Python's import-deadlock breaker).
    analyzer, anonymizer = get_engines()
    from presidio_anonymizer.entities import OperatorConfig
    from presidio_anonymizer.entities import RecognizerResult as SpanToReplace

    folded = normalize(text)
    results = analyzer.analyze(
        text=folded.text,
        language=analyzer.supported_languages[0],
        score_threshold=float(settings.PII_SCORE_THRESHOLD),
    )
    findings = [Finding(f.entity_type, *folded.span(f.start, f.end), f.score) for f in _resolve_overlaps(results)]
    rejected = {f.entity_type for f in findings} & set(settings.PII_REJECT_ENTITIES)
    if not findings:
        return Redacted(text, ()), rejected
    anonymized = anonymizer.anonymize(
        text=text,
        analyzer_results=[SpanToReplace(f.entity_type, f.start, f.end, f.score) for f in findings],
        operators={"DEFAULT": OperatorConfig("replace")},  # no new_value: "<ENTITY_TYPE>"
    )
    return Redacted(anonymized.text, tuple(findings)), rejected


def redact(text: str) -> Redacted:
    """Replace personal data in `text` with typed placeholders such as "<CN_MOBILE>".

    Raises PIIRejected (and nothing else) when an entity type listed in PII_REJECT_ENTITIES is
    present.
    """
    with span("privacy.redact") as current:
        result, rejected = _analyze(text)
        current.set_attribute("findings", len(result.findings))
    if rejected:
        metrics.pii_rejected(rejected)
        raise PIIRejected(rejected)
    return result


def redact_data(data: Any) -> tuple[Any, dict[str, int]]:
    """Redact every string in JSON-like data (dict/list/str/int/float/bool/None), dict keys too.

    Numbers are redacted too when their digits are personal data ({"phone": 13812345678} becomes
    {"phone": "<CN_MOBILE>"}); other numbers are kept as numbers. A value is read after its key
    ("landline: 2162345678"), so the key is the context a sentence would give.

    Returns (new data, merged counts); the input is not modified. Tuples are treated like
    lists. PIIRejected names every rejected type found anywhere in the data. Any other value
    type raises TypeError rather than being stored unchecked. Two keys that redact to the same
    text are kept apart with a "#2", "#3", ... suffix instead of one overwriting the other.
    """
    counts: Counter[str] = Counter()
    rejected: set[str] = set()

    def scalar(value: Any, context: str = "") -> Any:
        """A string or number, read after `context` ("landline: ") so the key's meaning counts;
        a number comes back unchanged unless it is personal data."""
        text = str(value)
        result, found = _analyze(context + text)
        if result.text.startswith(context):
            kept = tuple(f for f in result.findings if f.start >= len(context))
            result = Redacted(result.text[len(context) :], kept)
        else:  # a finding ran into the context itself: judge the value on its own
            result, found = _analyze(text)
        if isinstance(value, (int, float)) and not result.findings:
            return value
        rejected.update(found)
        counts.update(result.counts)
        return result.text

    def walk(value: Any, context: str = "") -> Any:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, (str, int, float)):
            return scalar(value, context)
        if isinstance(value, (list, tuple)):
            return type(value)(walk(item) for item in value)
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for key, item in value.items():
                new_key = scalar(key) if isinstance(key, str) else key
                if new_key in out:
                    n = 2
                    while f"{new_key}#{n}" in out:
                        n += 1
                    new_key = f"{new_key}#{n}"
                out[new_key] = walk(item, f"{new_key}: " if isinstance(new_key, str) else "")
            return out
        raise TypeError(f"redact_data() cannot walk a {type(value).__name__}; expected JSON-like data.")

    with span("privacy.redact_data") as current:
        new_data = walk(data)
        current.set_attribute("findings", sum(counts.values()))
    if rejected:
        metrics.pii_rejected(rejected)
        raise PIIRejected(rejected)
    return new_data, dict(counts)
