"""What changed between two versions of a memory: English by word, Chinese by character; a
placeholder of removed personal data (<CN_MOBILE>) is one token, shown as people see it."""

import re
from difflib import SequenceMatcher

from django.utils.safestring import SafeString, mark_safe

from apps.privacy.labels import PLACEHOLDER, placeholders_html

_TOKENS = re.compile(PLACEHOLDER.pattern + r"|[A-Za-z0-9_]+|\s+|.", re.DOTALL)


def _tokens(text: str) -> list[str]:
    return [match.group(0) for match in _TOKENS.finditer(text)]


def diff_html(before: str, after: str) -> SafeString:
    old, new = _tokens(before), _tokens(after)
    parts = []
    for op, a1, a2, b1, b2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(placeholders_html("".join(old[a1:a2])))
        if op in ("delete", "replace"):
            parts.append(f"<del>{placeholders_html(''.join(old[a1:a2]))}</del>")
        if op in ("insert", "replace"):
            parts.append(f"<ins>{placeholders_html(''.join(new[b1:b2]))}</ins>")
    return mark_safe("".join(parts))
