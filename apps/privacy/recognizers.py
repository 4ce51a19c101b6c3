"""Presidio recognizers for the redaction gate, and the registry that holds them.

Importing this module imports Presidio (and spaCy through it), which takes about a second;
`apps.privacy.redaction` therefore imports it only when the engines are first built.

Everything is registered under one analysis language, `LANGUAGE` ("en"). Presidio picks
recognizers by language, but our texts mix Chinese and English inside one string, and all
the recognizers here are patterns or checksums that do not depend on the language. Analysing
once under "en" finds Chinese and English identifiers in the same pass, with spans in the
original text. (If an English spaCy model is configured for PERSON/LOCATION, it also sees the
whole text.)
"""

from __future__ import annotations

import datetime

import regex
import tldextract
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    CryptoRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UsSsnRecognizer,
)

LANGUAGE = "en"

# regex.ASCII matters for Chinese text: without it `\w` matches Chinese characters, so `\b`
# finds no boundary in "银行卡4111111111111111" (the card is missed) and the e-mail pattern
# extends "邮箱是zhang.san@qq.com" leftwards over "邮箱是".
REGEX_FLAGS = regex.ASCII | regex.DOTALL | regex.MULTILINE | regex.IGNORECASE


def luhn_ok(digits: str) -> bool:
    """True when the digit string passes the Luhn (mod 10) checksum."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK_CHARS = "10X98765432"


def cn_id_checksum_ok(value: str) -> bool:
    """True when the 18th character is the GB 11643-1999 (ISO 7064 MOD 11-2) check character."""
    total = sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS))
    return _ID_CHECK_CHARS[total % 11] == value[17].upper()


def cn_id_birth_date_ok(value: str, today: datetime.date | None = None) -> bool:
    """True when characters 7-14 are a real calendar date from 1900 up to today."""
    today = today or datetime.date.today()
    try:
        born = datetime.date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    return 1900 <= born.year and born <= today


class CnResidentIdRecognizer(PatternRecognizer):
    """Chinese resident identity card number (居民身份证号码), 18 characters.

    A real birth date is required. A correct check character scores `VALID_SCORE`; a wrong one
    still counts (`MISTYPED_SCORE`) because people mistype the number they are disclosing.
    """

    VALID_SCORE = 0.95
    MISTYPED_SCORE = 0.5
    PATTERNS = [
        Pattern(
            "CN resident ID (18)",
            r"(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dX](?![\dX])",
            MISTYPED_SCORE,
        )
    ]

    def __init__(self) -> None:
        super().__init__(
            supported_entity="CN_RESIDENT_ID",
            name="CnResidentIdRecognizer",
            supported_language=LANGUAGE,
            patterns=list(self.PATTERNS),
            global_regex_flags=REGEX_FLAGS,
        )

    def invalidate_result(self, pattern_text: str) -> bool:
        return not cn_id_birth_date_ok(pattern_text)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            if cn_id_checksum_ok(text[result.start : result.end]):
                result.score = self.VALID_SCORE
        return results


class CnMobileRecognizer(PatternRecognizer):
    """Mainland China mobile number: 1[3-9] + 9 digits, optional +86/0086/86 prefix.

    Groups may be separated by spaces or dashes ("+86 139-1234-5678", "138 1234 5678").
    The digit look-arounds keep it from tagging 11 digits inside an ID or a card number.
    """

    SCORE = 0.8
    PATTERNS = [
        Pattern(
            "CN mobile",
            r"(?<!\d)(?:(?:\+|00)?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)",
            SCORE,
        )
    ]

    def __init__(self) -> None:
        super().__init__(
            supported_entity="CN_MOBILE",
            name="CnMobileRecognizer",
            supported_language=LANGUAGE,
            patterns=list(self.PATTERNS),
            global_regex_flags=REGEX_FLAGS,
        )


class CnBankCardRecognizer(PatternRecognizer):
    """Bank card number: 16-19 digits passing Luhn, contiguous or in groups of four.

    The grouped forms are separate patterns (16 digits; 17-19 digits) rather than one pattern
    with an optional tail: a regex match is validated only after it is chosen, so
    "4111 1111 1111 1111 12" must not be tried only as a 18-digit number that fails Luhn.
    """

    SCORE = 0.9
    PATTERNS = [
        Pattern("CN bank card (contiguous)", r"(?<!\d)\d{16,19}(?!\d)", SCORE),
        Pattern("CN bank card (4x4 groups)", r"(?<!\d)\d{4}(?:[ -]\d{4}){3}(?!\d)", SCORE),
        Pattern("CN bank card (4x4 groups + tail)", r"(?<!\d)\d{4}(?:[ -]\d{4}){3}[ -]\d{1,3}(?!\d)", SCORE),
    ]

    def __init__(self) -> None:
        super().__init__(
            supported_entity="CN_BANK_CARD",
            name="CnBankCardRecognizer",
            supported_language=LANGUAGE,
            patterns=list(self.PATTERNS),
            global_regex_flags=REGEX_FLAGS,
        )

    def invalidate_result(self, pattern_text: str) -> bool:
        digits = "".join(ch for ch in pattern_text if ch.isdigit())
        return len(set(digits)) == 1 or not luhn_ok(digits)


def offline_tld_extractor() -> tldextract.TLDExtract:
    """A TLD extractor that only uses the public-suffix snapshot bundled with tldextract.

    `tldextract.extract` (what Presidio's EmailRecognizer calls) uses a module-level extractor
    that, on first use, looks in a disk cache and then downloads the suffix list over HTTP.
    No URLs and no cache dir means it goes straight to the bundled snapshot.
    """
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's EmailRecognizer with the domain check done by `offline_tld_extractor`."""

    def __init__(self) -> None:
        self._tld = offline_tld_extractor()
        super().__init__(supported_language=LANGUAGE)

    def load(self) -> None:
        """Parse the bundled suffix list now (~20 ms) rather than in the first e-mail's request."""
        self._tld("example.com")

    def validate_result(self, pattern_text: str) -> bool:
        return self._tld(pattern_text).fqdn != ""


class QuickPhoneRecognizer(PhoneRecognizer):
    """Presidio's phonenumbers-based PhoneRecognizer, with fewer regions and a digit pre-check.

    It is the slowest recognizer here: phonenumbers scans the whole text once per region.
    Measured on the benchmark texts, Presidio's 8 default regions give p95 1.6 ms per text,
    these 3 give 0.8 ms (with no phone recognizer at all: 0.2 ms). CN is listed so landlines
    like "010-62345678" are found; numbers written with a "+country" prefix are found whatever
    the region list. Texts with fewer than 7 digits (the shortest international number, e.g.
    "+683 4002") are skipped without scanning.
    """

    REGIONS = ("CN", "US", "GB")
    MIN_DIGITS = 7

    def __init__(self) -> None:
        super().__init__(supported_language=LANGUAGE, supported_regions=self.REGIONS)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if sum(ch.isdigit() for ch in text) < self.MIN_DIGITS:
            return []
        return super().analyze(text, entities, nlp_artifacts)


def build_registry(extra: list[EntityRecognizer] | None = None) -> RecognizerRegistry:
    """An explicit registry: Presidio's default set would pull in NER recognizers needing models."""
    builtins: list[PatternRecognizer] = [
        OfflineEmailRecognizer(),
        CreditCardRecognizer(supported_language=LANGUAGE),
        IbanRecognizer(supported_language=LANGUAGE),
        IpRecognizer(supported_language=LANGUAGE),
        UsSsnRecognizer(supported_language=LANGUAGE),
        CryptoRecognizer(supported_language=LANGUAGE),
    ]
    # The built-ins' constructors do not take flags; the registry only sets them on the
    # recognizers it instantiates itself, so set them here.
    for recognizer in builtins:
        recognizer.global_regex_flags = REGEX_FLAGS
    recognizers: list[EntityRecognizer] = [
        *builtins,
        QuickPhoneRecognizer(),
        CnResidentIdRecognizer(),
        CnMobileRecognizer(),
        CnBankCardRecognizer(),
        *(extra or []),
    ]
    return RecognizerRegistry(
        recognizers=recognizers, global_regex_flags=REGEX_FLAGS, supported_languages=[LANGUAGE]
    )
