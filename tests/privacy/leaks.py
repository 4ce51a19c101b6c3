"""What counts as a leak, decided independently of the code under test.

A value leaked when, after redaction, the text still holds the value as typed, or four or more of
its digits in a row (full-width digits, Chinese numerals and zero-width characters folded first, so
an evasion that survives is still seen), or, for an e-mail, its local part.
"""

from __future__ import annotations

import re
import unicodedata

_CN_DIGITS = {c: str(i) for i, c in enumerate("零一二三四五六七八九")} | {"〇": "0", "幺": "1"}
_PLACEHOLDER = re.compile(r"<[A-Z_]+>")


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return "".join(_CN_DIGITS.get(c, c) for c in text if unicodedata.category(c) != "Cf")


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isascii() and c.isdigit())


def _shares_run(a: str, b: str, length: int = 4) -> bool:
    return any(a[i : i + length] in b for i in range(len(a) - length + 1))


def leaked(kind: str, value: str, redacted: str) -> bool:
    if value in redacted:
        return True
    folded_value, folded_out = fold(value), fold(redacted)
    if kind == "email":
        local = folded_value.split("@")[0]
        return len(local) >= 2 and local in folded_out
    value_digits = _digits(folded_value)
    return any(_shares_run(_digits(part), value_digits) for part in _PLACEHOLDER.split(folded_out))
