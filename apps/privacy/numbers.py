"""Digit runs: phone numbers of every region, card numbers, Chinese resident IDs and US SSNs.

One recognizer reads every run of digits in the (normalized) text once — digits joined by spaces,
dashes, dots, slashes, underscores, commas or parentheses, with an optional "+"/"00" country
prefix, a "(0)" and an extension ("x123", "ext. 123", "转 123") — and decides what it is:

1. **Chinese resident ID**: 18 characters (last may be X) or the legacy 15 digits, with a real
   birth date; the check character raises the score.
2. **Card**: 12-19 digits passing Luhn, whatever the prefix, written contiguous, in card-like groups
   or digit by digit. 16-19 digits are reported as CN_BANK_CARD (Chinese banks issue every range),
   12-15 as CREDIT_CARD.
3. **US SSN**: 3-2-4 groups, or nine digits next to "SSN"/"social security".
4. **Phone** (CN_MOBILE for mainland mobiles, PHONE_NUMBER otherwise):
   - a "+"/"00" country prefix: a possible number for that country, or any grouped run of 8+ digits;
   - in a phone context (电话, 手机, 微信, QQ, "call me", "my number", tel, wa.me/, ... nearest before
     it): any run of 7-15 digits, or a shorter one that is a valid number somewhere;
   - otherwise only written the way phone numbers are: valid in one of `PII_PHONE_REGIONS` AND
     grouped like that region's national format, a trunk-prefixed (0...) valid number, a mainland
     mobile, or a North American 3-3-4 / (3) 3-4 shape. (Valid in *some* region is no evidence:
     almost any 6-12 digits are.)
   Dates, year ranges, decimals, lists, thousands-grouped and currency amounts, percentages,
   versions, standards' years and runs after "order", "ISBN", "error", "订单", ... are left alone
   unless a "+" says otherwise.

Runs glued to ASCII letters ("SF1234567890123", "ORD-2026-00123") are product codes unless they are
a resident ID, a mainland mobile or a 16-19 digit card.
"""

from __future__ import annotations

import datetime
import functools

import phonenumbers
import regex
from django.conf import settings
from phonenumbers import PhoneMetadata
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

_SEP = (
    r"(?:[ \t\u00a0]*[-\u2010-\u2015./_,~、·][ \t\u00a0]*|[ \t\u00a0]*\n[ \t\u00a0]*|[ \t\u00a0]+"
    r"|[ \t\u00a0]*\([ \t\u00a0]*|[ \t\u00a0]*\)[ \t\u00a0]*)"
)
_RUN = regex.compile(
    rf"(?P<prefix>(?:\+|00(?=[1-9]))[ \t\u00a0]*)?\(?\d(?:{_SEP}{{0,2}}\d)*+(?P<x>[Xx](?![A-Za-z0-9]))?",
    regex.ASCII,
)
_EXTENSION = regex.compile(
    r"[ \t\u00a0]*(?:,|;)?[ \t\u00a0]*(?:x|ext\.?|extension|转|分机|內線|内线|#)[ \t\u00a0]*\d{1,6}(?!\d)",
    regex.ASCII | regex.IGNORECASE,
)
_GROUP_SPLIT = regex.compile(r"[^0-9Xx]+")

# Words that say a phone number follows. Generic words ("number", "line", "call", "no") count only
# in phrases that are about a person's number ("my number", "call me at").
_PHONE_CONTEXT = regex.compile(
    r"电话|電話|手机|手機|(?<!订单|訂單|单|單|编|編|证件|證件|证|證|卡|票|工)号码|(?<!订单|单|编|证件|卡)號碼|联系|聯繫|聯絡|联络|致电|拨打|撥打|打给|打給|"
    r"微信(?!图片|圖片|群|支付|红包|紅包|公众号|公眾號|文件)|座机|座機|热线|熱線|传真|傳真|分机|分機|来电|短信|电联|\bQQ\b|"
    r"whats\s?app|wechat|line\s?id|telegram|signal|viber|wa\.me/|t\.me/|\btel:|[?&](?:phone|number|tel)=|"
    r"\b(?:phone|phones|tel|tele?phone|mobile|mob|cellphone|cell\s+phone|fax|sms|dial|hotline|landline|"
    r"t[ée]l[ée]phone|telefon|telefone|tel[ée]fono|celular|m[óo]vil|portable|handy)\b|"
    r"\b(?:call|text|reach|ring|contact|phone|message|ping)\s*(?:me|us|him|her|them|我们|我|他|她)(?![a-z])|打(?=[\s:：]*$)|"
    r"\b(?:my|his|her|their|our|your|contact|office|home|work|cell|direct)\s+(?:number|no\.?|nr|#|line)(?![a-z])|"
    r"\bcontact\s+(?:details|info)|携帯|전화|연락",
    regex.IGNORECASE,
)
_NOT_PHONE_CONTEXT = regex.compile(
    r"订单|訂單|单号|單號|工单|编号|版本|金额|价格|价钱|报价|邮编|快递|运单|物流|条码|條碼|发票|型号|余额|股价|分辨率|尺寸|错误|报错|"
    r"中通|圆通|申通|韵达|顺丰|京东|极兔|邮政|"
    r"\b(?:order|orders|ticket|invoice|inv|isbn|issn|doi|version|ver|build|release|ref|reference|case|sku|ean|upc|gtin|"
    r"barcode|tracking|serial|price|amount|total|port|page|pages|pp|room|flight|zip|postcode|postal|model|line|stack|depth|kill|error|err|errno|code|exit|resolution|account|aws|pid|uid)\b",
    regex.IGNORECASE,
)
_SSN_CONTEXT = regex.compile(
    r"\bssn\b|\bss#|social\s+security|\b(?:my|his|her)\s+social\b|社会安全号|社安号", regex.IGNORECASE
)
_CARD_CONTEXT = regex.compile(
    r"卡号|卡號|卡(?=[\s:：]*$)|银行卡|銀行卡|信用卡|借记卡|储蓄卡|银联|銀聯|\b(?:card|credit|debit|visa|mastercard|amex|unionpay|maestro|jcb)\b",
    regex.IGNORECASE,
)
# Words that say the number after them is an identity document's. (Not a bare "ID": "order ID",
# "user ID" and "session ID" are not personal data.)
IDENTITY_CONTEXT = regex.compile(
    r"身份证|身份證|身分證|证件|證件|护照|護照|驾照|駕照|驾驶证|社保|医保|"
    r"(?-i:\bID)(?=\s*(?:[:：#]|号|是|\bis\b))|"
    r"\b(?:ssn|ss#|social\s+security|passport|national\s+insurance|ni\s+number|nino|id\s+(?:number|card|no)|identity|"
    r"driver'?s?\s+licen[cs]e|tax\s+(?:id|number)|personal\s+number|personnummer|nif|dni|cpf|pesel)\b",
    regex.IGNORECASE,
)
_CURRENCY_BEFORE = regex.compile(r"[¥$€£₩₹￥]\s*$|\b(?:rmb|cny|usd|eur|gbp|hkd|jpy)\s*$", regex.IGNORECASE)
_UNIT_AFTER = regex.compile(
    r"^\s*(?:%|‰|元|块|万|亿|版|美元|欧元|英镑|日元|港币|人民币|年|月|日|号|点|分|秒|次|个|件|行|条|页|步|"
    r"(?:usd|eur|gbp|rmb|cny|yuan|dollars?|euros?|k|m|b|bn|kb|mb|gb|tb|ms|km|kg|cm|mm|rows?|steps?|times?|pages?|words?)\b)",
    regex.IGNORECASE,
)
_TIME_BEFORE = regex.compile(r"\d[:：]$")  # 13:44:26.123456 — the seconds of a time
_YEAR = regex.compile(r"(?:19|20)\d\d")
_LIST_ITEM = regex.compile(r"[^,;、]+")
_PIECE = regex.compile(r"\S+")
_IPV4 = regex.compile(r"(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)")
_WINDOW = 32  # characters before a run searched for context

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK_CHARS = "10X98765432"
_CARD_GROUPINGS = {
    (4, 4, 4),
    (4, 4, 4, 3),
    (4, 4, 4, 4),
    (4, 4, 4, 4, 1),
    (4, 4, 4, 4, 2),
    (4, 4, 4, 4, 3),
    (4, 6, 5),
    (4, 6, 4),
    (4, 4, 4, 2),
    (4, 4, 4, 4, 4),
    (6, 13),
    (4, 4, 4, 1),
}
_ID_GROUPINGS = {
    (6, 8, 4),
    (6, 6, 6),
    (6, 4, 4, 4),
    (3, 3, 4, 4, 4),
    (6, 6, 3),
    (6, 8, 3, 1),
    (4, 4, 4, 4, 2),
    (6, 4, 4, 3, 1),
}
# Epoch timestamps in s/ms/us/ns between 2001 and ~2039 are not card numbers (no issuer uses these
# ranges at these lengths; Mastercard's 2-series starts at 2221...).
_EPOCH_RANGES = {13: (10**12, 22 * 10**11), 16: (10**15, 22 * 10**14), 19: (10**18, 22 * 10**17)}
_NANP_SHAPES = {(3, 3, 4)}


def luhn_ok(digits: str) -> bool:
    """True when the digit string passes the Luhn (mod 10) checksum."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def cn_id_checksum_ok(value: str) -> bool:
    """True when the 18th character is the GB 11643-1999 (ISO 7064 MOD 11-2) check character."""
    total = sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK_CHARS[total % 11] == value[17].upper()


def _date_ok(year: int, month: int, day: int, today: datetime.date | None = None) -> bool:
    try:
        born = datetime.date(year, month, day)
    except ValueError:
        return False
    return born.year >= 1900 and born <= (today or datetime.date.today())


def cn_id_birth_date_ok(value: str, today: datetime.date | None = None) -> bool:
    """True when the birth date of an 18-character (YYYYMMDD at 7-14) or 15-digit (YYMMDD at
    7-12, 19YY) resident ID is a real date from 1900 up to today."""
    if len(value) == 15:
        return _date_ok(1900 + int(value[6:8]), int(value[8:10]), int(value[10:12]), today)
    return _date_ok(int(value[6:10]), int(value[10:12]), int(value[12:14]), today)


# --- phone numbers of every region --------------------------------------------------------------


@functools.cache
def _region_rules() -> tuple[tuple[str, regex.Pattern | None, regex.Pattern, frozenset[int]], ...]:
    """Per region: (region, national prefix for parsing, general number pattern, possible lengths),
    read from phonenumbers' metadata once, so a candidate is checked against every region with a
    few hundred regex matches instead of a full parse per region."""
    rules = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        meta = PhoneMetadata.metadata_for_region(region)
        general = meta.general_desc if meta else None
        if meta is None or general is None or not general.national_number_pattern:
            continue
        prefix = meta.national_prefix_for_parsing or meta.national_prefix
        rules.append(
            (
                region,
                regex.compile(f"(?:{prefix})") if prefix else None,
                regex.compile(f"(?:{general.national_number_pattern})"),
                frozenset(general.possible_length or ()),
            )
        )
    return tuple(rules)


def _parse_valid(digits: str, region: str) -> phonenumbers.PhoneNumber | None:
    try:
        number = phonenumbers.parse(digits, region)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_valid_number(number) else None


def _may_be_of(digits: str, rule: tuple) -> bool:
    """The cheap test of `_region_rules`: length and general pattern, national prefix stripped."""
    _, prefix, pattern, lengths = rule
    national = digits
    if prefix is not None and (m := prefix.match(digits)) and m.end() > 0:
        national = digits[m.end() :]
    return (len(national) in lengths or len(digits) in lengths) and bool(
        pattern.fullmatch(national) or pattern.fullmatch(digits)
    )


@functools.lru_cache(maxsize=4096)
def valid_somewhere(digits: str) -> bool:
    """True when `digits`, written nationally, is a valid phone number of some region."""
    return any(_may_be_of(digits, rule) and _parse_valid(digits, rule[0]) for rule in _region_rules())


@functools.lru_cache(maxsize=4096)
def written_like_a_national_number(digits: str, sizes: tuple[int, ...], regions: tuple[str, ...]) -> bool:
    """True when `digits` is a valid number of one of `regions` AND is grouped the way that region
    writes its numbers ("0412 345 678" in AU, "01.23.45.67.89" in FR, "(11) 98765-4321" in BR):
    being valid somewhere is not enough, almost any 6-12 digits are."""
    rules = {rule[0]: rule for rule in _region_rules()}
    for region in regions:
        if region not in rules or not _may_be_of(digits, rules[region]):
            continue
        number = _parse_valid(digits, region)
        if number is None:
            continue
        national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
        if tuple(len(g) for g in regex.findall(r"\d+", national)) == sizes:
            return True
    return False


def _international(text: str) -> phonenumbers.PhoneNumber | None:
    """Parse "+CC ..." / "00CC ..." with its "(0)"; None when it is not a possible number."""
    text = text.replace("(0)", " ")
    if text.startswith("00"):
        text = "+" + text[2:]
    try:
        number = phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_possible_number(number) else None


def _is_cn_mobile(digits: str) -> bool:
    return len(digits) == 11 and digits[0] == "1" and digits[1] in "3456789"


# --- the recognizer -----------------------------------------------------------------------------


class _Run:
    """One digit run: its text, span, digits and the sizes of its digit groups."""

    def __init__(self, text: str, start: int, end: int, plus: bool) -> None:
        self.text, self.start, self.end, self.plus = text, start, end, plus
        self.groups = [g for g in _GROUP_SPLIT.split(text) if g]
        self.digits = "".join(self.groups)
        self.sizes = tuple(len(g) for g in self.groups)
        self.separators = {c for c in text if not (c.isdigit() or c in "Xx+")}


class NumberRecognizer(EntityRecognizer):
    ENTITIES = ["CN_RESIDENT_ID", "CN_BANK_CARD", "CREDIT_CARD", "US_SSN", "ID_NUMBER", "CN_MOBILE", "PHONE_NUMBER"]
    ID_VALID_SCORE = 0.95
    ID_MISTYPED_SCORE = 0.5
    CARD_SCORE = 0.9
    SSN_SCORE = 0.85
    PHONE_SCORE = 0.75
    MIN_DIGITS = 4  # Tokelau, Niue, Ascension ... have four- and five-digit numbers (in a phone context)

    def __init__(self, supported_language: str) -> None:
        super().__init__(
            supported_entities=list(self.ENTITIES), name="NumberRecognizer", supported_language=supported_language
        )

    def load(self) -> None:
        _region_rules()

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if sum(ch.isdigit() for ch in text) < self.MIN_DIGITS:
            return []
        results = []
        for match in _RUN.finditer(text):
            results.extend(self._classify_run(text, match))
        return results

    def _classify_run(self, text: str, match: regex.Match) -> list[RecognizerResult]:
        start, end = match.span()
        body = text[start:end].rstrip(" \t\u00a0-./_,~(")
        if body.endswith(")") and body.count(")") > body.count("("):
            body = body[:-1]
        if sum(c.isdigit() for c in body) < self.MIN_DIGITS or _IPV4.fullmatch(body):
            return []  # an IP address is the IP recognizer's
        if found := self._classify(text, _Run(body, start, start + len(body), plus=bool(match.group("prefix")))):
            return [found]
        # Several numbers one after the other: "13812345678，13912345678" (a list: each item on its
        # own), "2026-11-30 13812345678" (pieces: the longest that is something, left to right,
        # on stronger evidence than a whole run needs).
        if _amount_or_measure(text, start, start + len(body)):
            return []
        results = []
        for item in _LIST_ITEM.finditer(body):
            a, b = self._strip_span(text, start + item.start(), start + item.end())
            if b - a == len(body):
                results.extend(self._pieces(text, a, b))
            elif sum(c.isdigit() for c in text[a:b]) >= self.MIN_DIGITS:
                hit = self._classify(text, _Run(text[a:b], a, b, plus=text[a] == "+"))
                results.extend([hit] if hit else self._pieces(text, a, b))
        return results

    @staticmethod
    def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
        while a < b and not (text[a].isdigit() or text[a] in "+("):
            a += 1
        while b > a and not (text[b - 1].isdigit() or text[b - 1] in "Xx)"):
            b -= 1
        return a, b

    def _pieces(self, text: str, start: int, end: int) -> list[RecognizerResult]:
        pieces = [(m.start() + start, m.end() + start) for m in _PIECE.finditer(text[start:end])]
        if not 2 <= len(pieces) <= 64:
            return []
        counts = [sum(c.isdigit() for c in text[a:b]) for a, b in pieces]
        results, i = [], 0
        while i < len(pieces):
            j = i
            while j < len(pieces) and sum(counts[i : j + 1]) <= 19:
                j += 1
            for k in range(j, i, -1):
                if k - i == len(pieces) or sum(counts[i:k]) < self.MIN_DIGITS:
                    continue
                a, b = pieces[i][0], pieces[k - 1][1]
                if hit := self._classify(text, _Run(text[a:b], a, b, plus=text[a] == "+"), strict=True):
                    results.append(hit)
                    i = k
                    break
            else:
                i += 1
        return results

    def _classify(self, text: str, run: _Run, strict: bool = False) -> RecognizerResult | None:
        before = text[max(0, run.start - 2) : run.start]
        after = text[run.end : run.end + 1]
        glued = (
            _ascii_letter(before[-1:])
            or (_ascii_letter(after) and not _EXTENSION.match(text, run.end))
            or (len(before) == 2 and _ascii_letter(before[0]) and before[1] in "-_")
        )
        if _inside_hex_token(text, run):
            return None  # a hash, UUID or key: 56408098033243019af1f536d88cf233
        if not run.plus and (found := self._resident_id(run)):
            return found
        if (found := self._card(text, run, glued)) is not None:
            return found
        if glued:
            if _is_cn_mobile(run.digits) and run.sizes in {(11,), (3, 4, 4)}:
                return self._result(run, "CN_MOBILE", self.PHONE_SCORE)
            return None
        if not run.plus and (found := self._identity_number(text, run)):
            return found
        return self._phone(text, run, strict)

    def _result(self, run: _Run, entity_type: str, score: float, end: int | None = None) -> RecognizerResult:
        return RecognizerResult(entity_type, run.start, end or run.end, score)

    def _resident_id(self, run: _Run) -> RecognizerResult | None:
        value = run.digits.upper()
        grouping_ok = len(run.sizes) == 1 or run.sizes in _ID_GROUPINGS or set(run.sizes) == {1}
        if not grouping_ok or value[0] == "0":
            return None
        if len(value) == 18 and cn_id_birth_date_ok(value):
            score = self.ID_VALID_SCORE if cn_id_checksum_ok(value) else self.ID_MISTYPED_SCORE
            return self._result(run, "CN_RESIDENT_ID", score)
        if len(value) == 15 and value.isdigit() and value[0] in "12345678" and cn_id_birth_date_ok(value):
            return self._result(
                run, "CN_RESIDENT_ID", self.ID_VALID_SCORE if len(run.sizes) == 1 else self.ID_MISTYPED_SCORE
            )
        return None

    def _card(self, text: str, run: _Run, glued: bool) -> RecognizerResult | None:
        """Luhn-valid 12-19 digits in a card's grouping, whatever the prefix; after a card word
        ("卡号", "card", "visa") also a mistyped one. Not after "order"/"tracking"/"EAN"/..., not an
        epoch timestamp, not a compact date-time."""
        digits = run.digits
        if not digits.isdigit() or not 12 <= len(digits) <= 19 or len(set(digits)) == 1 or run.plus:
            return None
        if glued and len(digits) < 16:
            return None
        if not (len(run.sizes) == 1 or run.sizes in _CARD_GROUPINGS or set(run.sizes) == {1}):
            return None
        if set(run.sizes) == {1} and run.separators - {" ", "\t", "\u00a0"}:
            return None
        if _amount_or_measure(text, run.start, run.end):
            return None  # 跑了 5803 6760 3116 次
        cue = self.nearest_cue(text[max(0, run.start - _WINDOW) : run.start], _CARD_CONTEXT)
        if cue is False:
            return None
        if not cue and "," in run.separators and (len(run.sizes) < 4 or set(run.sizes[:-1]) != {4}):
            return None  # "7482, 6987, 14469" is a list
        if not cue:
            low, high = _EPOCH_RANGES.get(len(digits), (0, 0))
            if low <= int(digits) < high or _DATETIME_COMPACT.match(digits) or not luhn_ok(digits):
                return None
        return self._result(run, "CN_BANK_CARD" if len(digits) >= 16 else "CREDIT_CARD", self.CARD_SCORE)

    def _identity_number(self, text: str, run: _Run) -> RecognizerResult | None:
        """A US SSN by its 3-2-4 shape; any 6-18 digit number right after an identity-document word
        ("SSN", "passport", "身份证", ...), however it is grouped."""
        digits = run.digits
        if not digits.isdigit() or len(set(digits)) == 1:
            return None
        before = text[max(0, run.start - _WINDOW) : run.start]
        if (
            len(digits) == 9
            and digits[:3] not in ("000", "666")
            and digits[3:5] != "00"
            and digits[5:] != "0000"
            and (run.sizes == (3, 2, 4) or _SSN_CONTEXT.search(before))
        ):
            return self._result(run, "US_SSN", self.SSN_SCORE)
        if (
            6 <= len(digits) <= 18
            and self.nearest_cue(before, IDENTITY_CONTEXT)
            and not _looks_like_date(run.text, run.groups)
        ):
            return self._result(run, "ID_NUMBER", self.SSN_SCORE)
        return None

    def _phone(self, text: str, run: _Run, strict: bool = False) -> RecognizerResult | None:
        """`strict`: a piece of a longer run needs a "+", a phone word or a phone's own shape; being
        a valid number of some region is not enough there."""
        digits = run.digits
        if not digits.isdigit() or len(digits) > 17:
            return None
        end = run.end
        if ext := _EXTENSION.match(text, run.end):
            end = ext.end()
        if run.plus:
            number = _international(run.text)
            if number is not None or (len(digits) >= 8 and len(run.sizes) >= 2) or len(digits) >= 10:
                cn_mobile = (
                    number is not None and number.country_code == 86 and _is_cn_mobile(str(number.national_number))
                )
                return self._result(run, "CN_MOBILE" if cn_mobile else "PHONE_NUMBER", self.PHONE_SCORE, end)
            if not run.text.startswith("00"):
                return None  # "00..." that is no international number may still be a national one
        context = self.nearest_cue(text[max(0, run.start - _WINDOW) : run.start], _PHONE_CONTEXT)
        if (
            context is False
            or _TIME_BEFORE.search(text[max(0, run.start - 2) : run.start])
            or self._not_a_phone(text, run, in_context=bool(context))
        ):
            return None
        if _is_cn_mobile(digits) and (
            len(run.sizes) == 1 or run.sizes in {(3, 4, 4), (3, 3, 5), (3, 8)} or set(run.sizes) == {1}
        ):
            return self._result(run, "CN_MOBILE", self.PHONE_SCORE, end)
        if set(run.sizes) == {1} and run.separators - {" ", "\t", "\u00a0"}:
            return None  # "1, 2, 3, 4, 5, 6, 7" is a list; "1 3 8 ..." is a number spaced out
        if context:
            if 7 <= len(digits) <= 15 or valid_somewhere(digits):
                return self._result(run, "PHONE_NUMBER", self.PHONE_SCORE, end)
            return None
        # No phone word and no "+": only a number written the way phone numbers are written.
        if (
            run.sizes in _NANP_SHAPES
            and run.separators & set("-. ()")
            or (run.text.startswith("(") and len(digits) >= 9)
        ) and not _not_phone_shaped(run):
            return self._result(run, "PHONE_NUMBER", self.PHONE_SCORE, end)
        if strict or _not_phone_shaped(run):
            return None
        regions = tuple(settings.PII_PHONE_REGIONS)
        if len(run.sizes) >= 2 and written_like_a_national_number(digits, run.sizes, regions):
            return self._result(run, "PHONE_NUMBER", self.PHONE_SCORE, end)
        if (
            len(run.sizes) == 1
            and digits[0] == "0"
            and 10 <= len(digits) <= 12
            and any(_parse_valid(digits, r) for r in regions)
        ):
            return self._result(run, "PHONE_NUMBER", self.PHONE_SCORE, end)
        return None

    @staticmethod
    def nearest_cue(window: str, cue: regex.Pattern) -> bool | None:
        """True: a `cue` word is the nearest cue before the run; False: an order/version/price
        word is; None: neither."""
        wanted = [m.end() for m in cue.finditer(window)]
        other = [m.end() for m in _NOT_PHONE_CONTEXT.finditer(window)]
        if not wanted and not other:
            return None
        return max(wanted, default=-1) >= max(other, default=-1)  # "office line": the phrase wins

    @staticmethod
    def _not_a_phone(text: str, run: _Run, in_context: bool) -> bool:
        """Dates, year ranges, amounts, versions and measurements. After a phone word, only what
        cannot be a phone number: "电话 20.12.34" is New Caledonia's, not a date."""
        groups, seps = run.groups, run.separators
        if _amount_or_measure(text, run.start, run.end):
            return True
        if in_context:
            return bool(
                _DATE_YMD.match(run.text) or _DATE_COMPACT.match(run.text) or _DATETIME_COMPACT.match(run.digits)
            )
        if _looks_like_date(run.text, groups):
            return True
        if len(groups) > 1 and all(len(g) <= 2 for g in groups[:-1]) and 1 in run.sizes[:-1] and seps == {"."}:
            return True  # a version: 2.7.6.2964
        if len(groups) == 2 and all(len(g) == 4 and 1900 <= int(g) <= 2100 for g in groups):
            return True
        # 1,234,567 / 1.234.567
        return len(groups) >= 2 and seps <= {",", "."} and all(len(g) == 3 for g in groups[1:]) and len(groups[0]) <= 3


_DATE_YMD = regex.compile(r"(?:19|20)\d\d([-./ ])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)")
_DATE_DMY = regex.compile(r"(?:0?[1-9]|[12]\d|3[01])([-./ ])(?:0?[1-9]|[12]\d|3[01])\1(?:(?:19|20)\d\d(?!\d)|\d\d$)")
_DATETIME_COMPACT = regex.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])[0-5]\d")
_DATE_COMPACT = regex.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?!\d)")


def _not_phone_shaped(run: _Run) -> bool:
    """Without a phone word: too short, a 4-4 pair, dotted decimals and lists, scores, standards."""
    digits, groups, seps = run.digits, run.groups, run.separators
    return bool(
        len(digits) < 8
        or run.sizes == (4, 4)
        or seps & {",", "/", "、", "\n"}
        or ("." in seps and (len(groups) == 2 or (digits[0] != "0" and run.sizes not in _NANP_SHAPES)))
        or (len(groups) >= 4 and all(len(g) <= 2 for g in groups) and digits[0] != "0")  # 89 92 78 85: scores
        or (len(groups) == 2 and "-" in seps and _YEAR.fullmatch(groups[1]))  # GB/T 7988-2008: a standard's year
    )


def _ascii_letter(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def _inside_hex_token(text: str, run: _Run) -> bool:
    start, end = run.start, run.end
    while start > 0 and text[start - 1] in "0123456789abcdefABCDEF":
        start -= 1
    while end < len(text) and text[end] in "0123456789abcdefABCDEF":
        end += 1
    token = text[start:end]
    return len(token) >= 16 and not token.isdigit() and bool(regex.fullmatch(r"[0-9a-f]+|[0-9A-F]+", token))


def _amount_or_measure(text: str, start: int, end: int) -> bool:
    """¥560000, $1,299.99, 12.5%, 1024MB, 3669569 rows."""
    return bool(_CURRENCY_BEFORE.search(text[max(0, start - 6) : start]) or _UNIT_AFTER.match(text[end : end + 8]))


def _looks_like_date(text: str, groups: list[str]) -> bool:
    """2026-11-30, 2026/11/30 15, 2017 08 17, 30.11.2026 00, 26 05 1997, 11/30/26, 20261130."""
    dmy = _DATE_DMY.match(text)
    return bool(
        _DATE_YMD.match(text)
        or _DATE_COMPACT.match(text)
        or (dmy and (len(dmy.group()) == len(text) or len(groups[2]) == 4))
    )
