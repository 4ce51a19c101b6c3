"""What changed between two versions of a memory: English by word, Chinese by character."""

import re
from difflib import SequenceMatcher

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_TOKENS = re.compile(r"[A-Za-z0-9_]+|\s+|.", re.DOTALL)


def diff_html(before: str, after: str) -> SafeString:
    old, new = _TOKENS.findall(before), _TOKENS.findall(after)
    parts = []
    for op, a1, a2, b1, b2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(escape("".join(old[a1:a2])))
        if op in ("delete", "replace"):
            parts.append(f"<del>{escape(''.join(old[a1:a2]))}</del>")
        if op in ("insert", "replace"):
            parts.append(f"<ins>{escape(''.join(new[b1:b2]))}</ins>")
    return mark_safe("".join(parts))
