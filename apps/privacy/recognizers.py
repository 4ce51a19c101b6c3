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
from presidio_analyzer import EntityRecognizer, PatternRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import CryptoRecognizer, IbanRecognizer, IpRecognizer

from apps.privacy.numbers import IDENTITY_CONTEXT, NumberRecognizer

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
_IS_CJK = regex.compile(rf"[{_CJK}]")
_LOCAL = regex.compile(r"[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~.-]+$")
# "@" as typed: with spaces around it, bracketed or spelled ("[at]", "(at)", " AT ", " at ", "艾特").
_AT = regex.compile(
    r"[ \t]?@[ \t]?|[ \t]?[\[({][ \t]?at[ \t]?[\])}][ \t]?|[ \t](?-i:AT)[ \t]|[ \t]at[ \t]|艾特", regex.IGNORECASE
)
_SPELLED_AT = regex.compile(r"^(?:[ \t]at[ \t]|艾特)$", regex.IGNORECASE)
_LABEL_CHAR = r"(?:(?![点點])[\p{L}\p{N}\p{M}])"
_LABEL = regex.compile(rf"{_LABEL_CHAR}(?:(?:{_LABEL_CHAR}|-)*{_LABEL_CHAR})?")
_DOT = regex.compile(r"\.|[ \t]?[\[({][ \t]?dot[ \t]?[\])}][ \t]?|[ \t]dot[ \t]|点|點", regex.IGNORECASE)
# Words a Chinese sentence puts right before an address glued to it: "邮箱是张三@...", "发到李四@...".
_LOCAL_CUE = regex.compile(
    r".*(?:是|为|為|：|:|到|给|給|至|邮箱|郵箱|邮件|郵件|信箱|电邮|電郵|地址|email|mail)", regex.IGNORECASE
)


class EmailRecognizer(EntityRecognizer):
    """E-mail addresses with Unicode local parts and IDN domains (after normalization, so "＠",
    "．" and "。" count as "@" and "."), and as people write them to dodge filters: "a @ b.com",
    "a[at]b[dot]com", "a at b dot com", "a艾特qq点com" (spelled forms only when the domain ends
    in a public suffix).

    Glued to Chinese text, an ASCII address is only its ASCII part ("邮箱是zhang.san@qq.com"); a
    Chinese local part starts after the cue before it ("邮箱是张三@..." -> "张三@..."). A domain glued
    to the words after it ends at the longest public suffix the bundled list knows ("a@例子.中国谢谢");
    an unknown suffix ("corp.internal") still counts for a plain "@": for privacy, x@y.z is an
    address. A suffix must hold a letter ("lodash@4.17.21" is a package version).

    Each "@" is looked at on its own, at most 64 characters to its left and 255 to its right, so
    a long token before an "@" costs no more than a short one.
    """

    SCORE = 0.9

    def __init__(self, supported_language: str) -> None:
        self._tld = offline_tld_extractor()
        super().__init__(
            supported_entities=["EMAIL_ADDRESS"], name="EmailRecognizer", supported_language=supported_language
        )

    def load(self) -> None:
        """Parse the bundled suffix list now (~20 ms) rather than in the first e-mail's request."""
        self._tld("example.com")

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        lowered = text.lower()
        if "@" not in text and "at" not in lowered and "艾特" not in text:
            return []
        results = []
        for at in _AT.finditer(text):
            spelled = not regex.search(r"@|\[|\(|\{", at.group())
            local = self._local_part(text[max(0, at.start() - 64) : at.start()], ascii_only=spelled)
            end = self._domain_end(text, at.end(), spelled)
            if local and end:
                results.append(RecognizerResult("EMAIL_ADDRESS", at.start() - len(local), end, self.SCORE))
        return results

    @staticmethod
    def _local_part(left: str, ascii_only: bool) -> str:
        match = _LOCAL.search(left)
        if not match:
            return ""
        local: str = match.group()
        if _IS_CJK.search(local[-1]):
            if ascii_only:
                return ""
            local = local[len(m.group()) :] if (m := _LOCAL_CUE.match(local)) and len(m.group()) < len(local) else local
            tail = regex.search(rf"[{_CJK}\p{{N}}._-]+$", local)
            local = str(tail.group()) if tail else local
        elif _IS_CJK.search(local):
            local = str(regex.search(rf"[^{_CJK}]+$", local).group())
        if ascii_only and not regex.fullmatch(r"[A-Za-z0-9._%+-]+", local):
            return ""
        return local.lstrip(".")

    def _domain_end(self, text: str, start: int, spelled: bool) -> int:
        """Where the domain after an "@" at `start` ends (0: no domain): labels joined by dots."""
        labels: list[tuple[str, int, int]] = []  # (label, start, end) in text
        pos, limit = start, min(len(text), start + 255)
        while pos < limit and (label := _LABEL.match(text, pos, limit)):
            labels.append((label.group(), label.start(), label.end()))
            dot = _DOT.match(text, label.end(), limit)
            if not dot or not _LABEL.match(text, dot.end(), limit):
                break
            pos = dot.end()
        if len(labels) < 2:
            return 0
        spelled_dot = any(text[a:b] != "." for (_, _, a), (_, b, _) in zip(labels, labels[1:], strict=False))
        if spelled and (not spelled_dot or any(len(label) < 2 for label, _, _ in labels)):
            return 0  # "look at google.com", "meet at 3 dot com"
        *head, (last, last_start, _) = labels
        # An ASCII suffix glued to what follows ends where the ASCII ends ("qq.com谢谢").
        if last[0].isascii():
            last = regex.match(r"[A-Za-z0-9-]+", last).group()
        names = [label for label, _, _ in head]
        if last.isascii() and not (spelled or spelled_dot):
            if not regex.search(r"[A-Za-z]", last):
                return 0
            return last_start + len(last)
        # A non-ASCII suffix glued to the words after it, or a spelled form: the longest prefix
        # with a known public suffix.
        for cut in range(len(last), 0, -1):
            if self._tld(".".join([*names, last[:cut]])).suffix and regex.search(r"\p{L}", last[:cut]):
                return last_start + cut
        return 0 if (spelled or spelled_dot) else last_start + len(last)


class _IdentityDocumentRecognizer(EntityRecognizer):
    """Letters-and-digits identity numbers. Upper case only (ids inside hashes and UUIDs are
    lower case), never inside a longer token or a dashed UUID. A shape that is common outside
    identity documents counts only after an identity word ("身份证", "passport", "ID:", ...)."""

    ENTITY = ""
    PATTERN: regex.Pattern
    SCORE = 0.85

    def __init__(self, supported_language: str) -> None:
        super().__init__(
            supported_entities=[self.ENTITY], name=type(self).__name__, supported_language=supported_language
        )

    def load(self) -> None:
        """Nothing to load: PATTERN is compiled at import."""

    def valid(self, match: regex.Match) -> bool:
        return True

    def needs_cue(self, match: regex.Match) -> bool:
        return True

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for match in self.PATTERN.finditer(text):
            if not self.valid(match):
                continue
            if self.needs_cue(match) and not NumberRecognizer.nearest_cue(
                text[max(0, match.start() - 32) : match.start()], IDENTITY_CONTEXT
            ):
                continue
            results.append(RecognizerResult(self.ENTITY, match.start(), match.end(), self.SCORE))
        return results


def _alnum(value: str) -> str:
    return str(regex.sub(r"[^0-9A-Z]", "", value))


class HkIdRecognizer(_IdentityDocumentRecognizer):
    """Hong Kong identity card: one or two letters, six digits, a check digit (0-9 or A), usually
    in parentheses: "A123456(3)", also "A123456-3", "A123 456(3)"; mod-11 checksum. Without the
    parentheses, or without the check digit, only after an identity word."""

    ENTITY = "HK_ID"
    PATTERN = regex.compile(
        r"(?<![A-Za-z0-9-])[A-Z]{1,2} ?\d{3} ?\d{3}"
        r"(?:[ \t]?(?P<paren>\([ \t]?[0-9A][ \t]?\))|-?[0-9A])?(?![A-Za-z0-9-])"
    )

    def valid(self, match: regex.Match) -> bool:
        value = _alnum(match.group())
        letters = regex.match(r"[A-Z]+", value).group()
        if len(value) - len(letters) == 6:
            return True  # no check digit: the identity word decides
        digits, check = value[len(letters) : -1], value[-1]
        chars = (" " + letters) if len(letters) == 1 else letters
        total = sum((9 - i) * (36 if c == " " else ord(c) - 55) for i, c in enumerate(chars))
        total += sum((7 - i) * int(d) for i, d in enumerate(digits))
        expected = (11 - total % 11) % 11
        return check == ("A" if expected == 10 else str(expected))

    def needs_cue(self, match: regex.Match) -> bool:
        return not match.group("paren")


class TwIdRecognizer(_IdentityDocumentRecognizer):
    """Taiwan national ID (and the new-format resident certificate): a letter, 1/2 (8/9), eight
    digits ("A123456789", "A 123456789"); weighted checksum with the letter's two-digit code. One
    product code in ten passes the checksum, so only after an identity word."""

    ENTITY = "TW_ID"
    PATTERN = regex.compile(r"(?<![A-Za-z0-9-])[A-Z][ -]?[1289]\d{8}(?![A-Za-z0-9-])")
    CODES = "ABCDEFGHJKLMNPQRSTUVXYWZIO"

    def valid(self, match: regex.Match) -> bool:
        value = _alnum(match.group())
        n = self.CODES.index(value[0]) + 10
        digits = [n // 10, n % 10, *(int(c) for c in value[1:])]
        return sum(d * w for d, w in zip(digits, (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1), strict=False)) % 10 == 0


class CnPassportRecognizer(_IdentityDocumentRecognizer):
    """Chinese ordinary passport: E or G and eight digits, or E, a letter (not I/O) and seven
    digits ("E12345678", "E-1234 5678", "EA1234567"). No checksum exists and error codes look the
    same, so only after an identity word."""

    ENTITY = "CN_PASSPORT"
    PATTERN = regex.compile(r"(?<![A-Za-z0-9-])(?:[EG][ -]?\d{4} ?\d{4}|E[A-HJ-NP-Z][ -]?\d{7})(?![A-Za-z0-9-])")


class UkNinoRecognizer(_IdentityDocumentRecognizer):
    """UK National Insurance number: two letters, three pairs of digits, a letter ("QQ 12 34 56 C").
    Prefixes the DWP never issues (e.g. "ZZ", "QQ" in examples) and any final letter still count:
    what a person typed as their number is theirs. Written compact, or without the final letter,
    only after an identity word."""

    ENTITY = "UK_NINO"
    PATTERN = regex.compile(
        r"(?<![A-Za-z0-9-])[A-Z]{2}(?P<spaced>[ \t])?\d{2}[ \t]?\d{2}[ \t]?\d{2}"
        r"(?:[ \t]?(?P<suffix>[A-Z]))?(?![A-Za-z0-9-])"
    )

    def needs_cue(self, match: regex.Match) -> bool:
        return not (match.group("spaced") and match.group("suffix"))


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
    return RecognizerRegistry(recognizers=recognizers, global_regex_flags=REGEX_FLAGS, supported_languages=[LANGUAGE])
