"""Presidio recognizers for the redaction gate, and the registry that holds them.

Importing this module imports Presidio (and spaCy through it), which takes about a second;
`apps.privacy.redaction` therefore imports it only when the engines are first built.

Everything is registered under one analysis language, `LANGUAGE` ("en"). Presidio picks
recognizers by language, but our texts mix Chinese and English inside one string, and all
the recognizers here are patterns or checksums that do not depend on the language. Analysing
once under "en" finds Chinese and English identifiers in the same pass, with spans in the
original text. (If an English spaCy model is configured for PERSON/LOCATION, it also sees the
whole text.)

The recognizers see the normalized text (`apps.privacy.normalize`): full-width forms, zero-width
characters and Chinese numerals are already folded. Digit runs (phones of every region, cards,
resident IDs, SSNs) are `apps.privacy.numbers.NumberRecognizer`; this module holds the e-mail
recognizer, the letter-and-digit IDs (Hong Kong, Taiwan, Chinese passport, UK NINO) and Presidio's
IBAN (with its checksum), IP and crypto-wallet recognizers.
"""

from __future__ import annotations

import regex
import tldextract
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import CryptoRecognizer, IbanRecognizer, IpRecognizer

from apps.privacy.numbers import NumberRecognizer

LANGUAGE = "en"

# regex.ASCII matters for Chinese text: without it `\w` matches Chinese characters, so `\b`
# finds no boundary in "银行卡4111111111111111" (the card is missed) and the e-mail pattern
# extends "邮箱是zhang.san@qq.com" leftwards over "邮箱是".
REGEX_FLAGS = regex.ASCII | regex.DOTALL | regex.MULTILINE | regex.IGNORECASE


def offline_tld_extractor() -> tldextract.TLDExtract:
    """A TLD extractor that only uses the public-suffix snapshot bundled with tldextract.

    `tldextract.extract` (what Presidio's EmailRecognizer calls) uses a module-level extractor
    that, on first use, looks in a disk cache and then downloads the suffix list over HTTP.
    No URLs and no cache dir means it goes straight to the bundled snapshot.
    """
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)


_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
_LOCAL_CHAR = r"[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~.-]"
_EMAIL_AT = regex.compile(rf"{_LOCAL_CHAR}+@[\p{{L}}\p{{N}}\p{{M}}](?:[\p{{L}}\p{{N}}\p{{M}}-]*[\p{{L}}\p{{N}}\p{{M}}])?(?:\.[\p{{L}}\p{{N}}\p{{M}}](?:[\p{{L}}\p{{N}}\p{{M}}-]*[\p{{L}}\p{{N}}\p{{M}}])?)+")
_IS_CJK = regex.compile(rf"[{_CJK}]")
# Words a Chinese sentence puts right before an address glued to it: "邮箱是张三@...", "发到李四@...".
_LOCAL_CUE = regex.compile(r".*(?:是|为|為|：|:|到|给|給|至|邮箱|郵箱|邮件|郵件|信箱|电邮|電郵|地址|email|mail)", regex.IGNORECASE)


class EmailRecognizer(EntityRecognizer):
    """E-mail addresses with Unicode local parts and IDN domains (after normalization, so "＠",
    "．" and "。" count as "@" and ".").

    Glued to Chinese text, an ASCII address is only its ASCII part ("邮箱是zhang.san@qq.com"); a
    Chinese local part starts after the cue before it ("邮箱是张三@..." -> "张三@..."). A domain glued
    to the words after it ends at the longest public suffix the bundled list knows ("a@例子.中国谢谢");
    an unknown suffix ("corp.internal") still counts: for privacy, x@y.z is an address.
    """

    SCORE = 0.9

    def __init__(self, supported_language: str) -> None:
        self._tld = offline_tld_extractor()
        super().__init__(supported_entities=["EMAIL_ADDRESS"], name="EmailRecognizer", supported_language=supported_language)

    def load(self) -> None:
        """Parse the bundled suffix list now (~20 ms) rather than in the first e-mail's request."""
        self._tld("example.com")

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        if "@" not in text:
            return []
        results = []
        for match in _EMAIL_AT.finditer(text):
            local, domain = match.group().split("@", 1)
            local = self._local_part(local)
            domain = self._domain(domain)
            if not local or not domain:
                continue
            at = match.start() + match.group().index("@")
            results.append(RecognizerResult("EMAIL_ADDRESS", at - len(local), at + 1 + len(domain), self.SCORE))
        return results

    @staticmethod
    def _local_part(local: str) -> str:
        if _IS_CJK.search(local[-1]):
            local = local[len(m.group()):] if (m := _LOCAL_CUE.match(local)) and len(m.group()) < len(local) else local
            tail = regex.search(rf"[{_CJK}\p{{N}}._-]+$", local)
            local = tail.group() if tail else local
        elif _IS_CJK.search(local):
            local = regex.search(rf"[^{_CJK}]+$", local).group()
        return local.strip(".")

    def _domain(self, domain: str) -> str:
        domain = domain.rstrip(".-")
        labels = domain.split(".")
        last = labels[-1]
        if last.isascii() or not _IS_CJK.search(last):
            if not last.isascii() and regex.search(r"[A-Za-z]", last):
                last = regex.match(r"[A-Za-z0-9-]+", last).group() if last[0].isascii() else last
            labels[-1] = regex.match(r"[\p{L}\p{N}-]+", last).group()
            return ".".join(labels) if len(labels) >= 2 and labels[-1] else ""
        # A CJK suffix glued to the words after it: the longest prefix with a known suffix.
        for cut in range(len(last), 0, -1):
            candidate = ".".join([*labels[:-1], last[:cut]])
            if self._tld(candidate).suffix:
                return candidate
        return domain if len(labels) >= 2 else ""


class ChecksumPatternRecognizer(PatternRecognizer):
    """A pattern recognizer whose matches must pass `checksum` (on the match, upper-cased)."""

    ENTITY = ""
    PATTERNS: list[Pattern] = []

    def __init__(self, supported_language: str) -> None:
        super().__init__(
            supported_entity=self.ENTITY, name=type(self).__name__, supported_language=supported_language,
            patterns=list(self.PATTERNS), global_regex_flags=REGEX_FLAGS,
        )

    def checksum(self, value: str) -> bool:
        return True

    def invalidate_result(self, pattern_text: str) -> bool:
        return not self.checksum(regex.sub(r"[^0-9A-Z]", "", pattern_text.upper()))


class HkIdRecognizer(ChecksumPatternRecognizer):
    """Hong Kong identity card: one or two letters, six digits, a check digit (0-9 or A), usually
    in parentheses: "A123456(3)". Mod-11 checksum."""

    ENTITY = "HK_ID"
    PATTERNS = [Pattern("HK ID", r"(?<![A-Za-z0-9])[A-Z]{1,2}\d{6}[ \t]?(?:\([ \t]?[0-9A][ \t]?\)|[0-9A])(?![A-Za-z0-9])", 0.85)]

    def checksum(self, value: str) -> bool:
        letters, digits, check = value[:-7], value[-7:-1], value[-1]
        chars = (" " + letters) if len(letters) == 1 else letters
        total = sum((9 - i) * (36 if c == " " else ord(c) - 55) for i, c in enumerate(chars))
        total += sum((7 - i) * int(d) for i, d in enumerate(digits))
        expected = (11 - total % 11) % 11
        return check == ("A" if expected == 10 else str(expected))


class TwIdRecognizer(ChecksumPatternRecognizer):
    """Taiwan national ID (and the new-format resident certificate): a letter, 1/2 (8/9), eight
    digits; weighted checksum with the letter's two-digit code."""

    ENTITY = "TW_ID"
    PATTERNS = [Pattern("TW ID", r"(?<![A-Za-z0-9])[A-Z][1289]\d{8}(?![A-Za-z0-9])", 0.85)]
    CODES = "ABCDEFGHJKLMNPQRSTUVXYWZIO"

    def checksum(self, value: str) -> bool:
        n = self.CODES.index(value[0]) + 10
        digits = [n // 10, n % 10, *(int(c) for c in value[1:])]
        return sum(d * w for d, w in zip(digits, (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1))) % 10 == 0


class CnPassportRecognizer(ChecksumPatternRecognizer):
    """Chinese ordinary passport: E or G and eight digits, or E, a letter (not I/O) and seven
    digits. No checksum exists; the shape is specific enough."""

    ENTITY = "CN_PASSPORT"
    PATTERNS = [Pattern("CN passport", r"(?<![A-Za-z0-9])(?:[EG]\d{8}|E[A-HJ-NP-Z]\d{7})(?![A-Za-z0-9])", 0.7)]


class UkNinoRecognizer(ChecksumPatternRecognizer):
    """UK National Insurance number: two letters, three pairs of digits, a letter, spaced or not.
    Prefixes the DWP never issues (e.g. "ZZ", "QQ" in examples) still count: what a person typed as
    their number is theirs."""

    ENTITY = "UK_NINO"
    PATTERNS = [Pattern("UK NINO", r"(?<![A-Za-z0-9])[A-Z]{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?[A-Z](?![A-Za-z0-9])", 0.7)]

def build_registry(extra: list[EntityRecognizer] | None = None) -> RecognizerRegistry:
    """An explicit registry: Presidio's default set would pull in NER recognizers needing models."""
    builtins: list[PatternRecognizer] = [
        IbanRecognizer(supported_language=LANGUAGE),
        IpRecognizer(supported_language=LANGUAGE),
        CryptoRecognizer(supported_language=LANGUAGE),
    ]
    # The built-ins' constructors do not take flags; the registry only sets them on the
    # recognizers it instantiates itself, so set them here.
    for recognizer in builtins:
        recognizer.global_regex_flags = REGEX_FLAGS
    recognizers: list[EntityRecognizer] = [
        *builtins,
        EmailRecognizer(LANGUAGE),
        NumberRecognizer(LANGUAGE),
        HkIdRecognizer(LANGUAGE),
        TwIdRecognizer(LANGUAGE),
        CnPassportRecognizer(LANGUAGE),
        UkNinoRecognizer(LANGUAGE),
        *(extra or []),
    ]
    return RecognizerRegistry(
        recognizers=recognizers, global_regex_flags=REGEX_FLAGS, supported_languages=[LANGUAGE]
    )
