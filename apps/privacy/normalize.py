"""Fold the ways people disguise digits and separators, keeping a map back to the original text.

The recognizers look at the folded text; placeholders are put on the original text's spans, so a
stored sentence keeps everything that was not personal data exactly as typed.

    >>> n = normalize("电话１３８\u200b１２３４５６７８")
    >>> n.text
    '电话13812345678'
    >>> n.span(2, 13)   # "13812345678" in the folded text -> the full-width run in the original
    (2, 14)

What is folded, character by character:
- Unicode NFKC: full-width digits and letters, "＠", "．", "＋", circled digits, ...;
- any decimal digit of another script (Arabic-Indic, Devanagari, ...) to its ASCII digit;
- format characters (category Cf: zero-width space/joiner, BOM, bidi marks) are dropped;
- Chinese numerals (〇零一二三四五六七八九, 幺 and 两 as phone numbers are read aloud, and the
  financial 壹贰叁...) in runs of seven or more, grouped or not, mixed with digits or not: mobile
  and ID numbers written out;
- "%2B" (a URL-encoded "+": "viber://chat?number=%2B447700900123") to "+";
- the ideographic full stop "。" to "." between the parts of an e-mail domain (after an "@").
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

import regex

_CN_NUMERALS = (
    {c: str(i) for i, c in enumerate("零一二三四五六七八九")}
    | {c: str(i) for i, c in enumerate("零壹贰叁肆伍陆柒捌玖")}
    | {"〇": "0", "幺": "1", "两": "2", "兩": "2", "貳": "2", "參": "3", "陸": "6"}
)
_NUMERAL = "0-9" + "".join(_CN_NUMERALS)
# Seven or more numerals, possibly in groups ("一三八 一二三四 五六七八").
_CN_NUMERAL_RUN = regex.compile(rf"[{_NUMERAL}](?:[ \-]?[{_NUMERAL}]){{6,}}")
_EMAIL_DOMAIN_STOP = regex.compile(r"(?<=@[^\s@]*)。(?=[^\s。]*[^\s。.,;:!?，。！？])")


@dataclass(frozen=True)
class Normalized:
    text: str
    origin: tuple[int, ...] | None  # origin[i] = index in the original of text[i]; None = identity

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original text's span of the folded text's [start, end)."""
        if self.origin is None:
            return start, end
        return self.origin[start], self.origin[end - 1] + 1


@functools.lru_cache(maxsize=8192)
def _fold(ch: str) -> str:
    if unicodedata.category(ch) == "Cf":
        return ""
    decimal = unicodedata.decimal(ch, None)
    return str(decimal) if decimal is not None else unicodedata.normalize("NFKC", ch)


def _needs_folding(text: str) -> bool:
    return not text.isascii() or "%2" in text


def normalize(text: str) -> Normalized:
    if not _needs_folding(text):
        return Normalized(text, None)
    chars: list[str] = []
    origin: list[int] = []
    skip = 0
    for index, ch in enumerate(text):
        if skip:
            skip -= 1
            continue
        if ch == "%" and text[index + 1 : index + 3].upper() == "2B":
            chars.append("+")
            origin.append(index)
            skip = 2
            continue
        if ch.isascii():
            chars.append(ch)
            origin.append(index)
            continue
        for out in _fold(ch):
            chars.append(out)
            origin.append(index)
    folded_text = "".join(chars)
    if any(c in _CN_NUMERALS for c in folded_text):
        folded_text = _CN_NUMERAL_RUN.sub(
            lambda m: (
                "".join(_CN_NUMERALS.get(c, c) for c in m.group())
                if sum(c in _CN_NUMERALS for c in m.group()) >= 4
                else m.group()
            ),
            folded_text,
        )
    if "@" in folded_text and "。" in folded_text:
        folded_text = _EMAIL_DOMAIN_STOP.sub(".", folded_text)
    if folded_text == text:
        return Normalized(text, None)
    return Normalized(folded_text, tuple(origin))
